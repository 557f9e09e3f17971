// Failed authentication is rate-limited per client address (docs/api.md#rate-limits): each failure (an unknown key, a
// bad or revoked token, a wrong password, a used ticket) takes a token from the address's bucket, and once it is
// empty every request from that address that presents credentials, or logs in, answers 429 until a token is back.
// Guessing keys or passwords then goes at `per_second`, whatever else the address does. Wall clock, as the other limit.
// The bucket is asked again, and charged, in the same step as a credential is judged (a password in the login
// handler, a session token once it is verified): requests sent at once all pass the first check, made as they arrive,
// and were charged only as they were answered, so 30 concurrent wrong passwords were all tried against a limit of 3.
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { TokenBucketStore } from './token-bucket-store.js';

/** The 401 codes that are a failed guess; a missing credential or an expired session is not. */
const FAILED_CODES: ReadonlySet<string> = new Set(['invalid_credentials', 'invalid_login', 'invalid_ticket']);

export class FailedAuthLimit {
  private readonly buckets: TokenBucketStore;
  /** Requests whose failure was charged where it was judged: the answer does not charge it again. */
  private readonly charged = new WeakSet<FastifyRequest>();

  constructor(limit: { perSecond: number; burst: number }, now?: () => number) {
    this.buckets = new TokenBucketStore(limit.perSecond, limit.burst, now);
  }

  /** Throws 429 when the request's address has used up its failures and the request tries to authenticate. */
  check(request: FastifyRequest, authenticates: boolean): void {
    if (!authenticates) return;
    const waitMs = this.buckets.waitMs(request.ip);
    if (waitMs === undefined) return;
    const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
    throw new ApiError(
      429,
      'rate_limited',
      `too many failed authentications from this address; retry after ${seconds} s`,
      undefined,
      { 'retry-after': seconds },
    );
  }

  /**
   * What a credential just judged answers: a failed one is charged now, or, once the address has used up its
   * failures (while this request was on its way), answers 429 instead; anything else goes on as it is.
   */
  judged(request: FastifyRequest, error: unknown): unknown {
    if (!isFailure(error)) return error;
    try {
      this.check(request, true);
    } catch (limited) {
      return limited;
    }
    this.charged.add(request);
    this.buckets.take(request.ip);
    return error;
  }

  /** Counts an answer against the request's address when it is a failed authentication not charged yet. */
  answered(request: FastifyRequest, error: ApiError): void {
    if (isFailure(error) && !this.charged.has(request)) this.buckets.take(request.ip);
  }
}

function isFailure(error: unknown): error is ApiError {
  return error instanceof ApiError && error.statusCode === 401 && FAILED_CODES.has(error.code);
}
