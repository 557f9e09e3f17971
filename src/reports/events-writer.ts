// The writer thread of a long run's events.jsonl (events-file.ts): it claims the ring, then hashes and writes what
// the run puts in it until the run closes, and leaves the sha256 (or why it failed) in the ring. The run's thread
// goes on with the run meanwhile: hashing and writing a journal was a fifth of an order's cost there.
import { createHash } from 'node:crypto';
import { workerData } from 'node:worker_threads';
import { Drainer, EventsRing, WAKE_BYTES } from './events-ring.js';

const { shared, fd } = workerData as { shared: SharedArrayBuffer; fd: number };
const ring = new EventsRing(shared);

// The run's thread may have taken the work itself (a writer thread that was too slow to start).
if (ring.handOver(Drainer.None, Drainer.Writer)) {
  const hash = createHash('sha256');
  try {
    for (;;) {
      const seen = ring.signalOf('writer');
      // Closing is read before the bytes: the run puts its last bytes before it closes, so none is left behind.
      const closing = ring.drainer === Drainer.Closing;
      const pending = ring.pending;
      if (pending >= WAKE_BYTES || (closing && pending > 0)) ring.drain(fd, hash);
      else if (closing) break;
      else ring.writerSleeps(seen);
    }
    ring.digest = hash.digest('hex');
    ring.handOver(Drainer.Closing, Drainer.Done);
  } catch (error) {
    ring.error = error instanceof Error ? error.message : String(error);
    while (!ring.handOver(ring.drainer, Drainer.Failed)); // the run may be closing at this moment
  }
}
