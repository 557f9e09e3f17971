// A run's events.jsonl, written as the run goes: the kernel's journal hands over chunks of whole lines (JournalOut),
// each encoded once, so a replay never holds its journal (docs/architecture.md#the-journal-goes-out-as-it-is-written).
// The bytes go through a ring (events-ring.ts) to whoever hashes and writes them: a writer thread, started once the
// journal passes WAKE_BYTES (hashing and writing was a fifth of an order's cost on the run's thread), or the run's
// own thread at close, for a journal too short to be worth a thread. Either gives the same bytes and sha256.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { JournalOut } from '../core/kernel/persistence/journal.js';
import { packageRoot } from '../market/holiday-file.js';
import { Drainer, EventsRing, hashAndWrite, WAKE_BYTES } from './events-ring.js';

/** How long the run waits for a writer thread to take the ring before it writes the file itself. */
const WRITER_START_MS = 2_000;

export class EventsFile implements JournalOut {
  private fd: number | undefined;
  private sha256: string | undefined;
  private buffer = Buffer.allocUnsafe(0);
  private readonly ring = new EventsRing();
  private writer: Worker | undefined;
  /** Set when this thread hashes and writes the file itself. */
  private hash: Hash | undefined;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(chunk: string): void {
    if (this.fd === undefined) throw new Error(`${this.path} is closed: the run's journal has ended`);
    if (!this.hash && this.ring.encode(chunk)) return this.afterPut();
    // One buffer, reused, rather than a fresh one per chunk: a long run writes hundreds of megabytes, and fresh memory
    // is dear (UTF-8 takes at most 3 bytes per UTF-16 unit).
    if (this.buffer.length < chunk.length * 3) this.buffer = Buffer.allocUnsafe(chunk.length * 3);
    const bytes = this.buffer.subarray(0, this.buffer.write(chunk, 'utf8'));
    for (let at = 0; at < bytes.length;) {
      const room = this.hash ? 0 : this.waitForRoom();
      if (room === 0) return hashAndWrite(this.fd, this.hash!, bytes.subarray(at));
      const piece = bytes.subarray(at, at + Math.min(room, bytes.length - at));
      this.ring.put(piece);
      at += piece.length;
      this.afterPut();
    }
  }

  /** Closes the file (once; again is a no-op) and gives the sha256 of everything written: the run's events_sha256. */
  close(): string {
    if (this.fd === undefined) return this.sha256!;
    try {
      if (!this.hash && this.ring.handOver(Drainer.None, Drainer.Run)) this.takeOver();
      if (this.hash) this.sha256 = this.hash.digest('hex');
      else this.sha256 = this.writerDigest();
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
    return this.sha256;
  }

  /** Closes the file of a run that failed, whatever became of its bytes: it is about to be removed. */
  discard(): void {
    try {
      this.close();
    } catch {
      // the file goes with its folder
    }
  }

  /** A journal long enough to be worth a thread gets its writer thread. */
  private afterPut(): void {
    if (!this.writer && this.ring.pending >= WAKE_BYTES) this.startWriter();
  }

  private startWriter(): void {
    try {
      // The compiled thread: the CLI and the tests both run after `npm run build`.
      this.writer = new Worker(join(packageRoot(), 'dist', 'src', 'reports', 'events-writer.js'), {
        workerData: { shared: this.ring.shared, fd: this.fd },
      });
    } catch {
      // No thread to be had (a process at its limit of them): this thread writes the file, as for a short journal.
      if (this.ring.handOver(Drainer.None, Drainer.Run)) this.takeOver();
      return;
    }
    this.writer.unref(); // the run's close waits for it; nothing else should
    this.writer.on('error', () => undefined); // it reports through the ring; one that never starts is waited out
  }

  /**
   * The room in the ring, once there is some: waits for the writer thread to drain it (or to fail). A writer thread
   * that has not taken the ring after WRITER_START_MS is given up on: this thread takes over, and the room is 0.
   */
  private waitForRoom(): number {
    const startedMs = performance.now();
    for (;;) {
      const seen = this.ring.signalOf('run');
      if (this.ring.drainer === Drainer.Failed) throw this.writerError();
      const room = this.ring.room;
      if (room > 0) return room;
      const waitedMs = performance.now() - startedMs;
      const started = this.ring.drainer !== Drainer.None;
      if (!started && waitedMs >= WRITER_START_MS && this.ring.handOver(Drainer.None, Drainer.Run)) {
        this.takeOver();
        return 0;
      }
      // A thread at work is waited for as long as it takes; one not started yet, until it is given up on.
      this.ring.runSleeps(seen, started ? Infinity : Math.max(1, WRITER_START_MS - waitedMs));
    }
  }

  /** This thread hashes and writes from now on, starting with what waits in the ring. */
  private takeOver(): void {
    this.hash = createHash('sha256');
    this.ring.drain(this.fd!, this.hash);
  }

  /** Tells the writer thread that the journal has ended, and waits for its last write and its sha256. */
  private writerDigest(): string {
    this.ring.handOver(Drainer.Writer, Drainer.Closing);
    for (;;) {
      const seen = this.ring.signalOf('run');
      const drainer = this.ring.drainer;
      if (drainer === Drainer.Done) return this.ring.digest;
      if (drainer === Drainer.Failed) throw this.writerError();
      this.ring.runSleeps(seen);
    }
  }

  private writerError(): Error {
    return new Error(`cannot write ${this.path}: ${this.ring.error}`);
  }
}
