// A worker announces its propsim version in its Redis client name (BullMQ's worker name, listed by CLIENT LIST), so
// the coordinator can refuse a run that a worker of another version would serve, naming both versions, before any
// shard goes on the queue and while the run lasts (docs/scaling.md#workers-on-n-machines). A Redis that hides its
// clients (CLIENT LIST disabled) leaves the check to the workers, which refuse shards of another version.
import type { Queue } from 'bullmq';

const MARK = '/propsim@';

/** The worker name BullMQ gives the worker's Redis connections: who it is and which propsim it runs. */
export function workerName(worker: string, version: string): string {
  return `${worker}${MARK}${version}`;
}

/** The worker and version a worker name announces; undefined for a client that is not a propsim worker. */
export function parseWorkerName(name: string): { worker: string; version: string } | undefined {
  const at = name.lastIndexOf(MARK);
  if (at < 0) return undefined;
  return { worker: name.slice(0, at), version: name.slice(at + MARK.length) };
}

/** "worker host:pid runs propsim 0.1.1, this coordinator 0.1.0" for the first worker of another version, if any. */
export async function otherVersionWorker(queue: Queue, version: string): Promise<string | undefined> {
  let clients: Record<string, string>[];
  try {
    clients = await queue.getWorkers();
  } catch {
    return undefined; // no client list: the workers' own refusal still names both versions
  }
  for (const client of clients) {
    const raw = client['rawname'] ?? '';
    const announced = parseWorkerName(raw.slice(raw.indexOf(':w:') + 3));
    if (announced && announced.version !== version)
      return `worker ${announced.worker} runs propsim ${announced.version}, this coordinator ${version}`;
  }
  return undefined;
}
