// The kernel's journal: every input and every event as one JSON line, numbered in the order they happened.
// Lines are built from objects whose keys are written in a fixed order, so identical inputs and seed give
// byte-identical journals.

export interface JournalEntry {
  seq: number;
  time_ms: number;
  type: string;
  data: unknown;
}

export class Journal {
  private readonly entries: string[] = [];
  private nextSeq = 1;

  constructor(readonly enabled = true) {}

  record(type: string, timeMs: number, data: unknown): void {
    const seq = this.nextSeq++;
    if (!this.enabled) return;
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
