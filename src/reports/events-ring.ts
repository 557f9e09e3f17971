// The ring through which a run's events.jsonl reaches the disk (events-file.ts): a SharedArrayBuffer that both the
// run's thread and the file's writer thread see. The run's thread puts the journal's bytes in, round and round; the
// one that drains them (the writer thread, or the run's own thread when the journal is short) hashes them and writes
// them to the file, in order. Counters and signals are read and waited on with Atomics: each side waits on a signal
// the other bumps after every change, so no wake-up is lost between a check and a wait; and each says when it sleeps,
// so the other wakes it only then, and the writer only once WAKE_BYTES wait for it (waking a thread is not free:
// done at every chunk of the journal, it would eat much of what the thread saves).
import type { Hash } from 'node:crypto';
import { writeSync } from 'node:fs';

/** The ring's bytes. */
export const RING_BYTES = 8 * 1024 * 1024;
/** Bytes waiting for the writer thread that are worth waking it (a journal shorter than this needs no thread). */
export const WAKE_BYTES = RING_BYTES / 32;

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
  /** 1 while the writer thread sleeps (or is about to). */
  WriterSleeps,
  /** 1 while the run's thread sleeps (or is about to). */
  RunSleeps,
}
const enum Big {
  Written,
  Drained,
}
const INTS_AT = 0;
const BIGS_AT = 24;
const DIGEST_AT = 40;
const DIGEST_BYTES = 64;
const ERROR_AT = DIGEST_AT + DIGEST_BYTES;
const ERROR_BYTES = 1024;
const BYTES_AT = ERROR_AT + ERROR_BYTES;

export class EventsRing {
  private readonly ints: Int32Array;
  private readonly bigs: BigInt64Array;
  private readonly bytes: Uint8Array;
  private readonly view: Buffer;

  constructor(readonly shared = new SharedArrayBuffer(BYTES_AT + RING_BYTES)) {
    this.ints = new Int32Array(shared, INTS_AT, 6);
    this.bigs = new BigInt64Array(shared, BIGS_AT, 2);
    this.bytes = new Uint8Array(shared, BYTES_AT, RING_BYTES);
    this.view = Buffer.from(shared, BYTES_AT, RING_BYTES);
  }

  get drainer(): Drainer {
    return Atomics.load(this.ints, Int.Drainer);
  }

  /** Hands draining from `from` to `to`; true when this call did it (no one else changed it meanwhile). */
  handOver(from: Drainer, to: Drainer): boolean {
    const changed = Atomics.compareExchange(this.ints, Int.Drainer, from, to) === from;
    if (changed) this.wake(to === Drainer.Done || to === Drainer.Failed ? Int.ToRun : Int.ToWriter);
    return changed;
  }

  get written(): bigint {
    return Atomics.load(this.bigs, Big.Written);
  }

  get drained(): bigint {
    return Atomics.load(this.bigs, Big.Drained);
  }

  /** Bytes put and not drained yet. */
  get pending(): number {
    return Number(this.written - this.drained);
  }

  /** Room for this many more bytes. */
  get room(): number {
    return RING_BYTES - this.pending;
  }

  /** Puts bytes that fit in the room (the run's thread). */
  put(bytes: Uint8Array): void {
    const written = this.written;
    const at = Number(written % BigInt(RING_BYTES));
    const first = Math.min(bytes.length, RING_BYTES - at);
    this.bytes.set(bytes.subarray(0, first), at);
    this.bytes.set(bytes.subarray(first), 0);
    this.advance(written, bytes.length);
  }

  /**
   * Encodes a chunk as UTF-8 straight into the ring when it surely fits before the ring's end (at most 3 bytes per
   * UTF-16 unit), sparing a copy; false when it might not (the caller puts it through a buffer of its own).
   */
  encode(chunk: string): boolean {
    const written = this.written;
    const at = Number(written % BigInt(RING_BYTES));
    const most = chunk.length * 3;
    if (most > RING_BYTES - at || most > this.room) return false;
    this.advance(written, this.view.write(chunk, at, 'utf8'));
    return true;
  }

  /** Hashes and writes every byte put and not drained yet, in order. */
  drain(fd: number, hash: Hash): void {
    const drained = this.drained;
    const written = this.written;
    const from = Number(drained % BigInt(RING_BYTES));
    const length = Number(written - drained);
    const first = Math.min(length, RING_BYTES - from);
    for (const piece of [this.bytes.subarray(from, from + first), this.bytes.subarray(0, length - first)])
      hashAndWrite(fd, hash, piece);
    Atomics.store(this.bigs, Big.Drained, written);
    Atomics.add(this.ints, Int.ToRun, 1);
    if (Atomics.load(this.ints, Int.RunSleeps) === 1) Atomics.notify(this.ints, Int.ToRun);
  }

  /** The value of a side's signal, read before checking what it waits for, then slept on. */
  signalOf(side: 'writer' | 'run'): number {
    return Atomics.load(this.ints, side === 'writer' ? Int.ToWriter : Int.ToRun);
  }

  /**
   * The writer thread sleeps until the run has put WAKE_BYTES, or closes (at once if its signal moved past `seen`).
   * It says so first, then looks again: a run that put its bytes before seeing it asleep had them seen here.
   */
  writerSleeps(seen: number): void {
    Atomics.store(this.ints, Int.WriterSleeps, 1);
    if (this.pending < WAKE_BYTES && this.drainer !== Drainer.Closing) Atomics.wait(this.ints, Int.ToWriter, seen);
    Atomics.store(this.ints, Int.WriterSleeps, 0);
  }

  /** The run's thread sleeps until the writer drains or ends (at once if its signal moved past `seen`). */
  runSleeps(seen: number, timeoutMs = Infinity): void {
    Atomics.store(this.ints, Int.RunSleeps, 1);
    this.wake(Int.ToWriter); // a full ring: the writer must not sleep on it
    Atomics.wait(this.ints, Int.ToRun, seen, timeoutMs);
    Atomics.store(this.ints, Int.RunSleeps, 0);
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

  private advance(written: bigint, bytes: number): void {
    Atomics.store(this.bigs, Big.Written, written + BigInt(bytes));
    Atomics.add(this.ints, Int.ToWriter, 1);
    if (Atomics.load(this.ints, Int.WriterSleeps) === 1 && this.pending >= WAKE_BYTES)
      Atomics.notify(this.ints, Int.ToWriter);
  }

  private wake(slot: Int): void {
    Atomics.add(this.ints, slot, 1);
    Atomics.notify(this.ints, slot);
  }
}

/** Feeds bytes to the file's sha256 and writes them all to it (a write may take only some). */
export function hashAndWrite(fd: number, hash: Hash, bytes: Uint8Array): void {
  hash.update(bytes);
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
}
