// A run's events.jsonl, written as the run goes: the kernel's journal hands over chunks of whole lines (JournalOut),
// each encoded once for both the file and its sha256, so a replay never holds its journal
// (docs/architecture.md#the-journal-goes-out-as-it-is-written).
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { JournalOut } from '../core/kernel/journal.js';

export class EventsFile implements JournalOut {
  private readonly hash = createHash('sha256');
  private fd: number | undefined;
  private sha256: string | undefined;
  private buffer = Buffer.allocUnsafe(0);

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(chunk: string): void {
    if (this.fd === undefined) throw new Error(`${this.path} is closed: the run's journal has ended`);
    // One buffer, reused, rather than a fresh one per chunk: a long run writes hundreds of megabytes, and fresh memory
    // is dear (UTF-8 takes at most 3 bytes per UTF-16 unit).
    if (this.buffer.length < chunk.length * 3) this.buffer = Buffer.allocUnsafe(chunk.length * 3);
    const bytes = this.buffer.subarray(0, this.buffer.write(chunk, 'utf8'));
    this.hash.update(bytes);
    writeSync(this.fd, bytes);
  }

  /** Closes the file (once; again is a no-op) and gives the sha256 of everything written: the run's events_sha256. */
  close(): string {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
      this.sha256 = this.hash.digest('hex');
    }
    return this.sha256!;
  }
}
