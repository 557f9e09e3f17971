// What a kernel command answers: the HTTP status the API will send and a body, or the error envelope
// (docs/architecture.md#command-outcomes): an `error` member first, then code and optional details.

export interface ErrorEnvelope {
  error: string;
  code: string;
  details?: Record<string, unknown>;
}

export type SuccessStatus = 200 | 201 | 202;
export type FailureStatus = 400 | 403 | 404 | 409 | 503;

export type Outcome<T> =
  { ok: true; status: SuccessStatus; body: T } | { ok: false; status: FailureStatus; body: ErrorEnvelope };

export function success<T>(status: SuccessStatus, body: T): Outcome<T> {
  return { ok: true, status, body };
}

export function failure<T = never>(
  status: FailureStatus,
  code: string,
  error: string,
  details?: Record<string, unknown>,
): Outcome<T> {
  return { ok: false, status, body: details ? { error, code, details } : { error, code } };
}

/** Thrown inside a command to answer with a failure; the command boundary turns it into an Outcome. */
export class CommandRefusal extends Error {
  constructor(
    readonly status: FailureStatus,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CommandRefusal';
  }
}

export function refusalOutcome(refusal: CommandRefusal): Outcome<never> {
  return failure(refusal.status, refusal.code, refusal.message, refusal.details);
}
