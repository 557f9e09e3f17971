// The kernel's journal: every input and every event as one JSON line, numbered in the order they happened.
// Lines are built from objects whose keys are written in a fixed order, so identical inputs and seed give
// byte-identical journals. A journal may keep only some lines (`keep`): the sandbox keeps its inputs (for the session
// export) and what daily position reads need (accounts, fills, prints), not every event of every order, so a long
// session's memory stays small. A journal whose lines a store keeps may let go of them (`letGo`): the sandbox does
// at each snapshot, so its memory does not grow with the session (docs/architecture.md#snapshots).
// Prints of market files journaled by reference are counted, not written: the count since the last line becomes one
// `input.market_prints` {from, to} line, written before the next line (docs/scenarios.md#the-journal).
// A journal may also go out as it is written (`out`): a replay's goes to its events.jsonl in chunks of OUT_CHUNK_LINES,
// so its memory does not grow with the run (docs/architecture.md#the-journal-goes-out-as-it-is-written).
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';

export interface JournalEntry {
  seq: number;
  time_ms: number;
  type: string;
  data: unknown;
}

/** Lines are joined into chunks of this many: one long string survives the young generation instead of thousands. */
const CHUNK_LINES = 1024;
/**
 * A journal that goes out hands over chunks of this many lines: small enough to stay in the young generation
 * and die there, where a kept line costs a first touch of fresh memory (docs/architecture.md#the-journal-goes-out-as-it-is-written).
 */
const OUT_CHUNK_LINES = 128;

/** Where a journal's lines go as they are written: chunks of whole lines, each ending in a newline, in order. */
export interface JournalOut {
  write(chunk: string): void;
}

/** How `write` begins every line: its type and time can be read without parsing it. */
const LINE_HEAD = /^\{"seq":\d+,"time_ms":(-?\d+),"type":"([^"\\]+)"/;

/** The time and type of a line that begins as a Journal writes it, else undefined (a hand-edited line). */
export function lineHead(line: string): { timeMs: number; type: string } | undefined {
  const head = LINE_HEAD.exec(line);
  return head ? { timeMs: Number(head[1]), type: head[2]! } : undefined;
}

/** The type of a line a Journal wrote, read from the line's fixed beginning (`write`) without parsing it. */
export function lineType(line: string): string {
  const at = line.indexOf('"type":"') + '"type":"'.length;
  return line.slice(at, line.indexOf('"', at));
}

export class Journal {
  /** Finished chunks: CHUNK_LINES lines each, every line ending in a newline. */
  private readonly chunks: string[] = [];
  /** The lines since the last chunk. */
  private recent: string[] = [];
  private kept = 0;
  /** The first kept lines, let go of: a store has them. */
  private letGoOf = 0;
  private nextSeq = 1;
  /** Market prints counted, and how many of them a line already covers. */
  private marketPrints = 0;
  private marketPrintsWritten = 0;
  private lastMarketPrintMs = 0;

  /** Whether the keep set names `input.*`: every input line. */
  private readonly keepsInputs: boolean;
  /** Where each kept line also goes as it is written (the sandbox's durable store). */
  private sink: ((line: string) => void) | undefined;

  /**
   * @param enabled false keeps nothing (benchmarks, back-test cells)
   * @param keep the line types to keep (`input.*` for every input), default every one; numbering counts every
   *   line either way
   * @param out where every line goes, in chunks, instead of being kept: only the lines not handed over yet are held,
   *   and flush() hands them over at the end of a run
   */
  constructor(
    readonly enabled = true,
    private readonly keep?: ReadonlySet<string>,
    private readonly out?: JournalOut,
  ) {
    this.keepsInputs = keep?.has('input.*') ?? false;
  }

  /** Hands every line kept from now on to `sink` as well (undefined stops it). */
  tapLines(sink: ((line: string) => void) | undefined): void {
    this.sink = sink;
  }

  /** Whether the journal keeps every line, so that it replays the run. */
  get complete(): boolean {
    return this.enabled && this.keep === undefined;
  }

  /** Whether a line of this type is kept (so the caller can skip building one that is not). */
  keeps(type: string): boolean {
    return (
      this.enabled &&
      (this.keep === undefined || this.keep.has(type) || (this.keepsInputs && type.startsWith('input.')))
    );
  }

  /**
   * Numbers the line and keeps it. The line is the JSON of a JournalEntry, keys in that order (`data` left out
   * when undefined), written directly: `type` is one of the kernel's own dotted names, which need no escaping.
   */
  record(type: string, timeMs: number, data: unknown): void {
    this.recordJson(type, timeMs, data === undefined ? undefined : JSON.stringify(data));
  }

  /** A print of the referenced market files, at `timeMs`: covered by the next `input.market_prints` line. */
  countMarketPrint(timeMs: number): void {
    this.marketPrints++;
    this.lastMarketPrintMs = timeMs;
  }

  /** As record, with the data already as JSON (the hot path writes its few fields itself). */
  recordJson(type: string, timeMs: number, dataJson: string | undefined): void {
    this.settle();
    this.write(type, timeMs, dataJson);
  }

  /** The market prints counted since the last line, as one line stamped with the time of the last of them. */
  private writeMarketPrints(): void {
    const from = this.marketPrintsWritten;
    this.marketPrintsWritten = this.marketPrints;
    this.write('input.market_prints', this.lastMarketPrintMs, `{"from":${from},"to":${this.marketPrints}}`);
  }

  private write(type: string, timeMs: number, dataJson: string | undefined): void {
    const seq = this.nextSeq++;
    if (!this.keeps(type)) return;
    const head = `{"seq":${seq},"time_ms":${timeMs},"type":"${type}"`;
    const line = dataJson === undefined ? `${head}}` : `${head},"data":${dataJson}}`;
    this.recent.push(line);
    this.sink?.(line);
    this.kept++;
    if (this.out) {
      if (this.recent.length === OUT_CHUNK_LINES) this.handOver(this.out);
    } else if (this.recent.length === CHUNK_LINES) {
      this.chunks.push(chunkOf(this.recent));
      this.recent = [];
    }
  }

  /**
   * Hands the lines not handed over yet to the journal's out (the end of a run; market prints counted since the last
   * line become theirs first). A journal without an out keeps its lines: nothing to do.
   */
  flush(): void {
    this.settle();
    if (this.out && this.recent.length > 0) this.handOver(this.out);
  }

  private handOver(out: JournalOut): void {
    const lines = this.recent.length;
    out.write(chunkOf(this.recent));
    this.letGoOf += lines;
    this.recent = [];
  }

  /** The lines so far; reading the journal ends the current run of counted market prints with its line. */
  get length(): number {
    this.settle();
    return this.kept;
  }

  /** The journal as JSON lines, each ending in a newline. */
  text(): string {
    return this.pieces().join('');
  }

  /** The journal in pieces whose concatenation is text(): a long run is written and hashed without joining it. */
  pieces(): string[] {
    this.settle();
    if (this.out) throw new Error('the journal went out as it was written: read it where its out put it');
    if (this.letGoOf > 0)
      throw new Error(`the journal let go of its first ${this.letGoOf} lines: the store keeps them, read them there`);
    const tail = this.recent.length === 0 ? [] : [chunkOf([...this.recent])];
    return [...this.chunks, ...tail];
  }

  /** The lines from the `from`-th (0-based) on: a reader that keeps its place reads only what was added. */
  linesSince(from: number): string[] {
    return [...this.eachLineSince(from)];
  }

  /**
   * The lines from the `from`-th (0-based) on, one chunk's at a time as they are iterated: a long read holds a chunk's
   * lines, not hundreds of thousands (which would outlive the young generation). Iterate it before the next line.
   */
  eachLineSince(from: number): Iterable<string> {
    this.settle();
    if (from < this.letGoOf)
      throw new Error(
        this.out
          ? `line ${from} of the journal went out (the first ${this.letGoOf} are where its out put them)`
          : `line ${from} of the journal was let go of (the first ${this.letGoOf} are in the store)`,
      );
    return this.heldLinesFrom(from - this.letGoOf);
  }

  private *heldLinesFrom(held: number): Generator<string> {
    for (let c = Math.floor(held / CHUNK_LINES); c < this.chunks.length; c++) {
      const chunkLines = this.chunks[c]!.slice(0, -1).split('\n');
      yield* chunkLines.slice(Math.max(0, held - c * CHUNK_LINES));
    }
    yield* this.recent.slice(Math.max(0, held - this.chunks.length * CHUNK_LINES));
  }

  /**
   * Lets go of every line kept so far, which a store keeps (the sandbox's, at a snapshot): the count and numbering go
   * on, and linesSince reads from here on; text() and pieces(), which would miss the first lines, refuse.
   */
  letGo(): void {
    if (this.out) return this.flush(); // its out has every line
    this.settle();
    this.letGoOf = this.kept;
    this.chunks.length = 0;
    this.recent = [];
  }

  private settle(): void {
    if (this.marketPrints !== this.marketPrintsWritten) this.writeMarketPrints();
  }
}

// Where the lines go (`out`, `sink`) is the driver's wiring; a caller may leave the held lines out too (the sandbox's
// store has them).
declareSnapshot(Journal, {
  kept: [
    'enabled',
    'keep',
    'chunks',
    'recent',
    'kept',
    'letGoOf',
    'nextSeq',
    'marketPrints',
    'marketPrintsWritten',
    'lastMarketPrintMs',
    'keepsInputs',
  ],
  skipped: ['out', 'sink'],
});

/**
 * Lines joined into a chunk, each ending in a newline (the array is spent). The last newline is the join's, from an
 * empty last line: `join() + '\n'` would make a two-part string that a write must first copy into one.
 */
function chunkOf(lines: string[]): string {
  lines.push('');
  return lines.join('\n');
}
