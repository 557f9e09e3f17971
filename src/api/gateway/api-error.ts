// Every 4xx and 5xx of the sandbox, from any layer, is this error turned into the envelope `{error, code, details?,
// request_id}` (docs/api.md#errors). Kernel refusals become one through `fromRefusal`.
import { echoed } from '../../core/validation/echo.js';
import type { FieldDetail } from '../../core/outcome.js';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: readonly FieldDetail[],
    /** Extra response headers, such as Retry-After. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function invalidRequest(details: readonly FieldDetail[]): ApiError {
  return new ApiError(400, 'invalid_request', details.map((d) => `${d.field}: ${d.message}`).join('; '), details);
}

export function notFound(code: string, what: string, id: string): ApiError {
  return new ApiError(404, code, `${what} ${echoed(id)} not found`);
}
