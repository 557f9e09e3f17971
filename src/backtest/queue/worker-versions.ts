// A worker announces its propsim build identity (build-identity.ts) in its Redis client name (BullMQ's worker name,
// listed by CLIENT LIST), so the coordinator can refuse a run that a worker of another build would serve, naming both,
// before any shard goes on the queue and while the run lasts (docs/scaling.md#workers-on-n-machines). A Redis that
// hides its clients (CLIENT LIST disabled) leaves the check to the workers, which refuse shards of another build. An
// older worker announces package.json's version only (0.1.0): another build, refused the same way.
import type { Queue } from 'bullmq';

const MARK = '/propsim@';

/** What to do about another build, at the end of both refusals. */
export const SAME_BUILD = 'run the same commit, built by npm ci, everywhere';

/** The worker name BullMQ gives the worker's Redis connections: who it is and which propsim build it runs. */
export function workerName(worker: string, version: string): string {
  return `${worker}${MARK}${version}`;
}

/** The worker and version a worker name announces; undefined for a client that is not a propsim worker. */
export function parseWorkerName(name: string): { worker: string; version: string } | undefined {
  const at = name.lastIndexOf(MARK);
  if (at < 0) return undefined;
  return { worker: name.slice(0, at), version: name.slice(at + MARK.length) };
}

/** A propsim worker connected to the queue, as its Redis client name announces it. */
export interface AnnouncedWorker {
  worker: string;
  version: string;
}

/** The propsim workers connected to the queue; undefined when Redis hides its client list. */
export async function queueWorkers(queue: Queue): Promise<AnnouncedWorker[] | undefined> {
  let clients: Record<string, string>[];
  try {
    clients = await queue.getWorkers();
  } catch {
    return undefined; // no client list: the workers' own refusal still names both builds
  }
  return clients.flatMap((client) => {
    const raw = client['rawname'] ?? '';
    return parseWorkerName(raw.slice(raw.indexOf(':w:') + 3)) ?? [];
  });
}

/** "worker host:pid runs propsim build 0.1.0+…, this coordinator build 0.1.0+…; …" for the first other build. */
export function otherBuildWorker(workers: readonly AnnouncedWorker[], version: string): string | undefined {
  const other = workers.find((announced) => announced.version !== version);
  return (
    other &&
    `worker ${other.worker} runs propsim build ${other.version}, this coordinator build ${version}; ${SAME_BUILD}`
  );
}
