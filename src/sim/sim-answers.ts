// What the simulation reads from an answer (docs/api.md#the-simulation): its JSON body and error code, what a replay
// must repeat, and the codes that say a request changed nothing; and the request as it was sent.
import type { SimAnswer } from './sim-system.js';
import { InvariantFailure } from './sim-failure.js';
import type { KeptAnswer } from './sim-model.js';
import type { Prepared } from './sim-requests.js';
import type { ClientCall } from './sim-steps.js';

/** One request as the simulation sent it. */
export interface Sent {
  no: number;
  step: number;
  cc: ClientCall;
  prepared: Prepared;
  /** The kernel's clock when it was sent. */
  nowMs: number;
  epoch: number;
  /** Sent at once with a reset, a clock move or a fault window: the clock and the ids it meets are not known. */
  racing: boolean;
  /** Another request with its Idempotency-Key was on its way at the same time. */
  overlapping: boolean;
  answer?: SimAnswer;
  /**
   * Sent after the store had failed: its answer must be 503 store_unavailable. One on its way when the store failed
   * may have committed first (a success, which a restart must keep) or not (503): it is marked by the answer it got.
   */
  storeFailed: boolean;
  /** The client gave up on it (an abort): an answer that comes after is one nobody sees. */
  abandoned?: boolean;
}

/** Refusals the gateway (or a handler, before it acts) gives: the request changed nothing (docs/api.md#gateway). */
export const REFUSALS_BEFORE_ACTING: ReadonlySet<string> = new Set([
  'missing_credentials',
  'invalid_credentials',
  'multiple_credentials',
  'token_expired',
  'session_ended',
  'invalid_ticket',
  'invalid_login',
  'missing_scope',
  'operator_required',
  'firm_key_forbidden_route',
  'user_forbidden_route',
  'admin_required',
  'session_required',
  'firm_id_header_forbidden',
  'firm_id_required',
  'firm_not_found',
  'route_not_found',
  'rate_limited',
  'invalid_json',
  'unsupported_media_type',
  'body_too_large',
  'wrong_shard',
  'bad_gateway',
  'service_unavailable',
  'idempotency_request_in_progress',
  'idempotency_key_reused',
  'entity_mismatch',
]);

/** What a fault window answers (docs/api.md#fault-windows). */
export const FAULT_CODES: ReadonlySet<string> = new Set(['wrong_shard', 'bad_gateway', 'service_unavailable']);
/** Fault windows and clocks near their end are not judged: a millisecond either way is not a bug. */
export const MARGIN_MS = 1000;

/**
 * A placement refused because the caller may not see the account: answered before the Idempotency-Key is looked at,
 * and not kept for a retry (docs/api.md#idempotency).
 */
export function isUnseenAccount(answer: SimAnswer, code: string | undefined): boolean {
  return answer.status === 404 && code === 'account_not_found';
}

/** What a replay must repeat: the status and body, an error's without its request_id (a new request's). */
export function keptAnswer(answer: SimAnswer): KeptAnswer {
  const body = parsed(answer);
  if (answer.status >= 400 && typeof body === 'object' && body !== null) {
    const { request_id: _requestId, ...rest } = body as Record<string, unknown>;
    return { status: answer.status, body: JSON.stringify(rest) };
  }
  return { status: answer.status, body: answer.text };
}

export function parsed(answer: SimAnswer): unknown {
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return undefined;
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new InvariantFailure(
      'error-envelope',
      `an application/json answer is not JSON: ${answer.text.slice(0, 200)}`,
    );
  }
}

export function errorCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const code = (body as { code?: unknown }).code;
  return typeof code === 'string' && 'error' in body ? code : undefined;
}
