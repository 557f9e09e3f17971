// The interface's retry rules (docs/api.md#the-client): retry 5xx answers and network failures with exponential
// backoff (from 250 ms, doubling, capped at 30 s, 50 % jitter); retry POST /v1/orders only when it carries an
// Idempotency-Key; never retry another 4xx than 429; on 429 wait what Retry-After says.

export interface RetryOptions {
  /** Attempts in all, the first included (default 6: five retries). */
  maxAttempts?: number;
  /** The first backoff step, ms (default 250). */
  initialDelayMs?: number;
  /** No backoff step exceeds this, ms (default 30,000). */
  maxDelayMs?: number;
  /** Share of each step taken off at random: the wait is drawn from [step × (1 − jitter), step] (default 0.5). */
  jitter?: number;
  /** Uniform in [0, 1) (default Math.random): seed it for tests. */
  random?: () => number;
  /** How to wait (default setTimeout): tests pass one that moves the sandbox's simulated clock instead. */
  sleep?: (ms: number) => Promise<void>;
}

export type RetryPolicy = Required<RetryOptions>;

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxAttempts: options.maxAttempts ?? 6,
    initialDelayMs: options.initialDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    jitter: options.jitter ?? 0.5,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
}

/** Whether a request may be sent again at all: every one but a POST /v1/orders without an Idempotency-Key. */
export function mayRetry(request: Request): boolean {
  const isOrderPlacement =
    request.method === 'POST' && new URL(request.url).pathname.replace(/\/+$/, '') === '/v1/orders';
  return !isOrderPlacement || request.headers.has('idempotency-key');
}

/** Whether an answer is worth another attempt: a 5xx or a 429. */
export function retryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

/** The wait before retry number `retry` (0 for the first): the exponential step less its random jitter. */
export function backoffMs(policy: RetryPolicy, retry: number): number {
  const step = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  return Math.round(step * (1 - policy.jitter * policy.random()));
}

/** A 429's wait: its Retry-After (whole seconds, or an HTTP date) when readable, else the backoff. */
export function waitAfter(response: Response, policy: RetryPolicy, retry: number, nowMs = Date.now()): number {
  const header = response.headers.get('retry-after');
  if (header !== null) {
    if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
    const dateMs = Date.parse(header);
    if (!Number.isNaN(dateMs)) return Math.max(0, dateMs - nowMs);
  }
  return backoffMs(policy, retry);
}
