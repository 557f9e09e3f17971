// What a kernel command answers: the HTTP status the API will send and a body, or the error envelope
// (docs/architecture.md#command-outcomes): an `error` member first, then code and, for malformed input, one
// detail per bad field.

/** One bad field of a request: its path (`quantity`, `user.email`, `order_ids[1]`) and what was wrong. */
export interface FieldDetail {
  field: string;
  message: string;
}

export interface ErrorEnvelope {
  error: string;
  code: string;
  details?: FieldDetail[];
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
  details?: FieldDetail[],
): Outcome<T> {
  return { ok: false, status, body: details ? { error, code, details } : { error, code } };
}

/** Thrown inside a command to answer with a failure; the command boundary turns it into an Outcome. */
export class CommandRefusal extends Error {
  constructor(
    readonly status: FailureStatus,
    readonly code: string,
    message: string,
    readonly details?: FieldDetail[],
  ) {
    super(message);
    this.name = 'CommandRefusal';
  }
}

export function refusalOutcome(refusal: CommandRefusal): Outcome<never> {
  return failure(refusal.status, refusal.code, refusal.message, refusal.details);
}

/** The message of several bad fields: each `field: message`, joined by '; '. */
export function detailsText(details: readonly FieldDetail[]): string {
  return details.map((d) => `${d.field}: ${d.message}`).join('; ');
}

/** 400 `invalid_request` naming every bad field (docs/api.md#errors). */
export function invalidRequest(details: readonly FieldDetail[]): CommandRefusal {
  return new CommandRefusal(400, 'invalid_request', detailsText(details), [...details]);
}

/** Refuses one bad field: `field: expected EXPECTED, got VALUE` (the value as JSON, `nothing` when absent). */
export function refuseField(field: string, expected: string, got: unknown): never {
  throw invalidRequest([{ field, message: `expected ${expected}, got ${JSON.stringify(got) ?? 'nothing'}` }]);
}
