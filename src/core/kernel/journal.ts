// The kernel's journal: every input and every event as one JSON line, numbered in the order they happened.
// Lines are built from objects whose keys are written in a fixed order, so identical inputs and seed give
// byte-identical journals. A journal may keep only some lines (`keep`): the sandbox keeps what daily position
// reads need (accounts, fills, prints, clock moves), not a line per order, so a long session's memory stays small.

export interface JournalEntry {
  seq: number;
  time_ms: number;
  type: string;
  data: unknown;
}

export class Journal {
  private readonly entries: string[] = [];
  private nextSeq = 1;

  /**
   * @param enabled false keeps nothing (benchmarks, back-test cells)
   * @param keep the line types to keep, default every one; numbering counts every line either way
   */
  constructor(
    readonly enabled = true,
    private readonly keep?: ReadonlySet<string>,
  ) {}

  /** Whether the journal keeps every line, so that it replays the run. */
  get complete(): boolean {
    return this.enabled && this.keep === undefined;
  }

  /** Whether a line of this type is kept (so the caller can skip building one that is not). */
  keeps(type: string): boolean {
    return this.enabled && (this.keep === undefined || this.keep.has(type));
  }

  record(type: string, timeMs: number, data: unknown): void {
    const seq = this.nextSeq++;
    if (!this.keeps(type)) return;
    const entry: JournalEntry = { seq, time_ms: timeMs, type, data };
    this.entries.push(JSON.stringify(entry));
  }

  get length(): number {
    return this.entries.length;
  }

  /** The journal as JSON lines, each ending in a newline. */
  text(): string {
    return this.entries.length === 0 ? '' : this.entries.join('\n') + '\n';
  }

  lines(): readonly string[] {
    return this.entries;
  }
}
