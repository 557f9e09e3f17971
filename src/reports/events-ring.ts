// The ring through which a run's events.jsonl reaches the disk (events-file.ts): a SharedArrayBuffer that both the
// run's thread and the file's writer thread see. The run's thread puts the journal's bytes in, round and round; the
// one that drains them (the writer thread, or the run's own thread when the journal is short) hashes them and writes
// them to the file, in order. Counters and signals are read and waited on with Atomics; each side waits on a signal
// the other bumps after every change, so no wake-up is lost between a check and a wait.
import type { Hash } from 'node:crypto';
import { writeSync } from 'node:fs';

/** The ring's bytes: a journal shorter than half of them is written by the run's thread at close, with no thread. */
export const RING_BYTES = 2 * 1024 * 1024;

/** Who drains the ring. */
export const enum Drainer {
  /** Nobody yet: a writer thread may claim it, or the run's thread take it. */
  None,
  /** The writer thread. */
  Writer,
  /** The run's thread, itself (a short journal closed, or a writer thread that did not start). */
  Run,
  /** The run's thread has put its last bytes: the writer thread drains them, then stops. */
  Closing,
  /** The writer thread has written and hashed every byte: the digest is in the ring. */
  Done,
  /** The writer thread could not write: the message is in the ring. */
  Failed,
}

const enum Int {
  Drainer,
  /** Bumped by the run's thread after each put and at close: the writer thread waits on it. */
  ToWriter,
  /** Bumped by the writer thread after each drain, and when done or failed: the run's thread waits on it. */
  ToRun,
  ErrorBytes,
}
const enum Big {
  Written,
  Drained,
}
const INTS_AT = 0;
const BIGS_AT = 16;
const DIGEST_AT = 32;
const DIGEST_BYTES = 64;
const ERROR_AT = DIGEST_AT + DIGEST_BYTES;
const ERROR_BYTES = 1024;
const BYTES_AT = ERROR_AT + ERROR_BYTES;

export class EventsRing {
  private readonly ints: Int32Array;
  private readonly bigs: BigInt64Array;
  private readonly bytes: Uint8Array;

  constructor(readonly shared = new SharedArrayBuffer(BYTES_AT + RING_BYTES)) {
    this.ints = new Int32Array(shared, INTS_AT, 4);
    this.bigs = new BigInt64Array(shared, BIGS_AT, 2);
    this.bytes = new Uint8Array(shared, BYTES_AT, RING_BYTES);
  }

  get drainer(): Drainer {
    return Atomics.load(this.ints, Int.Drainer);
  }

  /** Hands draining from `from` to `to`; true when this call did it (no one else changed it meanwhile). */
  handOver(from: Drainer, to: Drainer): boolean {
    const changed = Atomics.compareExchange(this.ints, Int.Drainer, from, to) === from;
    if (changed) this.signal(to === Drainer.Done || to === Drainer.Failed ? Int.ToRun : Int.ToWriter);
    return changed;
  }

  get written(): bigint {
    return Atomics.load(this.bigs, Big.Written);
  }

  get drained(): bigint {
    return Atomics.load(this.bigs, Big.Drained);
  }

  /** Room for this many more bytes. */
  get room(): number {
    return RING_BYTES - Number(this.written - this.drained);
  }

  /** Puts bytes that fit in the room (the run's thread). */
  put(bytes: Uint8Array): void {
    const written = this.written;
    const at = Number(written % BigInt(RING_BYTES));
    const first = Math.min(bytes.length, RING_BYTES - at);
    this.bytes.set(bytes.subarray(0, first), at);
    this.bytes.set(bytes.subarray(first), 0);
    Atomics.store(this.bigs, Big.Written, written + BigInt(bytes.length));
    this.signal(Int.ToWriter);
  }

  /** Hashes and writes every byte put and not drained yet, in order. */
  drain(fd: number, hash: Hash): void {
    const drained = this.drained;
    const written = this.written;
    const from = Number(drained % BigInt(RING_BYTES));
    const length = Number(written - drained);
    const first = Math.min(length, RING_BYTES - from);
    for (const piece of [this.bytes.subarray(from, from + first), this.bytes.subarray(0, length - first)]) {
      hash.update(piece);
      for (let at = 0; at < piece.length;) at += writeSync(fd, piece, at);
    }
    Atomics.store(this.bigs, Big.Drained, written);
    this.signal(Int.ToRun);
  }

  /** The value of a side's signal, to wait on after checking what it waits for. */
  signalOf(side: 'writer' | 'run'): number {
    return Atomics.load(this.ints, side === 'writer' ? Int.ToWriter : Int.ToRun);
  }

  /** Sleeps until the side's signal is bumped past `seen` (at once if it already is), or `timeoutMs` pass. */
  wait(side: 'writer' | 'run', seen: number, timeoutMs = Infinity): 'ok' | 'not-equal' | 'timed-out' {
    return Atomics.wait(this.ints, side === 'writer' ? Int.ToWriter : Int.ToRun, seen, timeoutMs);
  }

  /** The writer thread's sha256 (hex), once Done. */
  get digest(): string {
    return Buffer.from(this.shared, DIGEST_AT, DIGEST_BYTES).toString('latin1');
  }

  set digest(hex: string) {
    Buffer.from(this.shared, DIGEST_AT, DIGEST_BYTES).write(hex, 'latin1');
  }

  /** Why the writer thread failed, once Failed. */
  get error(): string {
    return Buffer.from(this.shared, ERROR_AT, Atomics.load(this.ints, Int.ErrorBytes)).toString('utf8');
  }

  set error(message: string) {
    const bytes = Buffer.from(message, 'utf8').subarray(0, ERROR_BYTES);
    Buffer.from(this.shared, ERROR_AT, ERROR_BYTES).set(bytes);
    Atomics.store(this.ints, Int.ErrorBytes, bytes.length);
  }

  private signal(slot: Int): void {
    Atomics.add(this.ints, slot, 1);
    Atomics.notify(this.ints, slot);
  }
}
