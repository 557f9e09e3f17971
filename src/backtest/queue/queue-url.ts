// `--queue redis://[:password@]host:port[/db]` (or rediss:// for TLS) as ioredis connection options, and the URL as
// messages show it: without its password (docs/scaling.md#password-and-tls).
import type { RedisOptions } from 'bullmq';
import { QueueInputError } from './queue-errors.js';

export interface QueueTarget {
  connection: RedisOptions;
  /** The URL with its password replaced by ***. */
  shown: string;
}

const DEFAULT_PORT = 6379;
/** How long connecting may take before Redis counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 3000;

export function parseQueueUrl(text: string): QueueTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new QueueInputError(
      `--queue: expected redis://[:password@]host:port[/db] or rediss://…, got ${JSON.stringify(text)}`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new QueueInputError(
      `--queue: expected a redis:// or rediss:// URL, got ${url.protocol}// in ${JSON.stringify(shownUrl(url))}`,
    );
  const dbText = url.pathname.replace(/^\//, '');
  if (dbText !== '' && !/^\d+$/.test(dbText))
    throw new QueueInputError(
      `--queue: the database after the port must be a whole number, got ${JSON.stringify(dbText)}`,
    );
  const connection: RedisOptions = {
    host: url.hostname.replace(/^\[|\]$/g, '') || 'localhost',
    port: url.port === '' ? DEFAULT_PORT : Number(url.port),
    db: dbText === '' ? 0 : Number(dbText),
    connectTimeout: CONNECT_TIMEOUT_MS,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: { servername: url.hostname } } : {}),
  };
  return { connection, shown: shownUrl(url) };
}

function shownUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = '***';
  return copy.href.replace(/\/$/, '');
}
