// Registers @fastify/rate-limit with the token-bucket store, keyed by caller (gateway/caller.ts#callerKey), and a
// 429 in the envelope with `Retry-After` in whole seconds, at least 1 (docs/api.md#rate-limits).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';
import { callerKey } from './caller.js';
import { TokenBucketStore } from './token-bucket-store.js';

export async function installRateLimit(
  app: FastifyInstance,
  limit: { perSecond: number; burst: number },
): Promise<void> {
  const store = new TokenBucketStore(limit.perSecond, limit.burst);
  await app.register(rateLimit, {
    global: true,
    max: limit.burst,
    timeWindow: 1000,
    store: function StoreOfThisApp() {
      return store;
    } as never,
    keyGenerator: (request) => callerKey(request.caller, request.ip),
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': false,
    },
    errorResponseBuilder: (_request, context) => {
      const seconds = String(Math.max(1, Math.ceil(context.ttl / 1000)));
      return new ApiError(429, 'rate_limited', `too many requests; retry after ${seconds} s`, undefined, {
        'retry-after': seconds,
      });
    },
  });
}
