// Redis answers a PING within the connect timeout, or the run stops before any work with exit 2 naming the URL.
import { Redis } from 'ioredis';
import { CONNECT_TIMEOUT_MS, type QueueTarget } from './queue-url.js';
import { QueueInputError } from './queue-errors.js';

export async function checkRedisReachable(target: QueueTarget): Promise<void> {
  const client = new Redis({
    ...target.connection,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null, // one attempt: an unreachable Redis is an answer, not a reason to wait
  });
  let lastError: Error | undefined;
  client.on('error', (error: Error) => (lastError = error));
  try {
    await withTimeout(
      client.connect().then(() => client.ping()),
      CONNECT_TIMEOUT_MS + 500,
    );
  } catch (error) {
    const reason = (lastError ?? (error as Error)).message;
    throw new QueueInputError(`cannot reach Redis at ${target.shown}: ${reason}`);
  } finally {
    client.disconnect();
  }
}

/** The promise, or a rejection `no answer within ms` once `ms` pass. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
