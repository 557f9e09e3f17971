// The credentials a request presents (docs/api.md#gateway): a firm or admin key in X-Service-Api-Key or as an
// `Authorization: Bearer svc_live_…`, or a user session as a bearer JWT or the `session` cookie. Keys are read from
// the raw headers, because Node joins a repeated header into one value and a repeat must be refused.
import type { IncomingMessage } from 'node:http';
import { looksLikeJwt } from '../auth/session-tokens.js';
import { ApiError } from './api-error.js';

export const KEY_PREFIX = 'svc_live_';

export type Presented =
  | { kind: 'none' }
  | { kind: 'key'; key: string }
  /** A session token; `fromCookie` when the browser sent it by itself (the `session` cookie). */
  | { kind: 'jwt'; token: string; fromCookie?: true }
  | { kind: 'malformed' };

/** `sessionCookie` is read only when no header credential came (parsing cookies costs every request otherwise). */
export function presentedCredentials(raw: IncomingMessage, sessionCookie: () => string | undefined): Presented {
  const keys: string[] = [];
  const authorizations: string[] = [];
  const headers = raw.rawHeaders;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!.toLowerCase();
    if (name === 'x-service-api-key') keys.push(headers[i + 1]!.trim());
    else if (name === 'authorization') authorizations.push(headers[i + 1]!.trim());
  }
  if (keys.length + authorizations.length > 1)
    throw new ApiError(401, 'multiple_credentials', 'send one credential: X-Service-Api-Key or Authorization, once');
  if (keys.length === 1)
    return keys[0]!.startsWith(KEY_PREFIX) ? { kind: 'key', key: keys[0]! } : { kind: 'malformed' };
  if (authorizations.length === 1) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorizations[0]!);
    if (!match) return { kind: 'malformed' };
    const token = match[1]!;
    if (token.startsWith(KEY_PREFIX)) return { kind: 'key', key: token };
    return looksLikeJwt(token) ? { kind: 'jwt', token } : { kind: 'malformed' };
  }
  const session = sessionCookie();
  if (session) return { kind: 'jwt', token: session, fromCookie: true };
  return { kind: 'none' };
}
