// X-Request-Id on every answer (docs/api.md#gateway): the caller's own when it is 1–128 characters of
// A-Za-z0-9._-, else a new UUID.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && VALID_REQUEST_ID.test(given) ? given : randomUUID();
}
