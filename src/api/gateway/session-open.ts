// Whether the session a request was admitted under is still open when the request acts (docs/api.md#what-a-reset-ends).
// The gateway checks a session token once, as the request arrives and before its body is read; a reset, a logout
// or the clock can end the session while the body is still coming (or a stream's upgrade is still being answered).
// So the session is asked again just before the handler runs, and just before a stream's socket is registered: a
// request admitted before a reset and acting after it would act on the fresh kernel, where the seeded ids name the
// same accounts again, under a session the reset ended.
import type { Sandbox } from '../sandbox/sandbox.js';
import { SESSION_ENDED_BY } from '../streams/session-sockets.js';
import { expiredSession, invalidSession } from './authenticate.js';
import type { ApiError } from './api-error.js';
import type { Caller } from './caller.js';

/** How the session of a user caller ended since it was admitted; undefined while it is open (or for a key). */
export type SessionEnd = 'reset' | 'revoked' | 'expired';

export function sessionEnd(caller: Caller, sandbox: Sandbox): SessionEnd | undefined {
  if (caller.kind !== 'user') return undefined;
  if (caller.generation !== sandbox.generation) return 'reset';
  if (sandbox.revokedTokens.has(caller.tokenId)) return 'revoked';
  if (caller.expiresAtMs <= sandbox.kernel.nowMs) return 'expired';
  return undefined;
}

/** Throws the 401 a fresh request with the same token would get, once its session has ended. */
export function requireOpenSession(caller: Caller, sandbox: Sandbox): void {
  const end = sessionEnd(caller, sandbox);
  if (end) throw refusalOf(end);
}

function refusalOf(end: SessionEnd): ApiError {
  return end === 'expired' ? expiredSession() : invalidSession();
}

/** The close reason of a trader stream whose session ended before its socket was registered (code 4001). */
export const SESSION_END_REASONS: Record<SessionEnd, string> = {
  reset: SESSION_ENDED_BY.reset,
  revoked: SESSION_ENDED_BY.revocation,
  expired: SESSION_ENDED_BY.expiry,
};
