// From a kernel Outcome to an HTTP answer: the status and body as the kernel gave them, or the refusal as the
// error envelope (the 503 of the risk engine's loading window with `Retry-After: 1`, docs/api.md#errors).
import type { FastifyReply } from 'fastify';
import type { Outcome } from '../../core/outcome.js';
import { ApiError } from '../gateway/api-error.js';

export function answer<T>(reply: FastifyReply, outcome: Outcome<T>): T {
  if (!outcome.ok) throw refusalError(outcome.status, outcome.body);
  reply.code(outcome.status);
  return outcome.body;
}

/** The body of a successful Outcome; a refusal is thrown as the envelope. */
export function settled<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw refusalError(outcome.status, outcome.body);
  return outcome.body;
}

function refusalError(
  status: number,
  body: { error: string; code: string; details?: { field: string; message: string }[] },
) {
  const headers: Record<string, string> = body.code === 'risk_loading' ? { 'retry-after': '1' } : {};
  return new ApiError(status, body.code, body.error, body.details, headers);
}
