// A fetch that follows the interface's retry rules (retry-policy.ts): each attempt sends a fresh copy of the
// request; when the attempts run out, the last answer is returned (or the last network error thrown).
import { backoffMs, mayRetry, retryableStatus, waitAfter, type RetryPolicy } from './retry-policy.js';

export function retryingFetch(
  policy: RetryPolicy,
  send: (request: Request) => Promise<Response> = (request) => fetch(request),
): (request: Request) => Promise<Response> {
  return async (request) => {
    const retriable = mayRetry(request);
    for (let attempt = 1; ; attempt++) {
      const last = !retriable || attempt >= policy.maxAttempts;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        await policy.sleep(backoffMs(policy, attempt - 1));
        continue;
      }
      if (last || !retryableStatus(response.status)) return response;
      // 429 and 503 say when to come back; another 5xx gets the backoff.
      const wait =
        response.status === 429 || response.status === 503
          ? waitAfter(response, policy, attempt - 1)
          : backoffMs(policy, attempt - 1);
      await response.body?.cancel();
      await policy.sleep(wait);
    }
  };
}
