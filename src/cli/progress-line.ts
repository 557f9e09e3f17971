// A line of progress on the terminal, written over in place: nothing for a run that ends within QUIET_MS of wall
// time (most scenarios: their result line is enough), then at most one update every UPDATE_MS (a long `advance` reports
// each session roll, thousands a second, and a terminal that drew each one would slow the run).

/** A run shorter than this shows no progress. */
const QUIET_MS = 1_000;
/** At most one update in this long. */
const UPDATE_MS = 100;
/** Erases the rest of the line, where a longer earlier update would show through. */
const ERASE_TO_END = '\u001b[K';

export class ProgressLine {
  private readonly startMs: number;
  private lastMs = Number.NEGATIVE_INFINITY;
  private shown = false;

  /** `nowMs` is the wall clock (a test gives its own). */
  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly nowMs: () => number = Date.now,
  ) {
    this.startMs = nowMs();
  }

  /** Shows `text()` if the run has gone on long enough and the last update is old enough (text is built only then). */
  update(text: () => string): void {
    const now = this.nowMs();
    if (now - this.startMs < QUIET_MS || now - this.lastMs < UPDATE_MS) return;
    this.lastMs = now;
    this.shown = true;
    this.out.write(`\r${text()}${ERASE_TO_END}`);
  }

  /** Ends the line if one was shown, so what is written next starts on a line of its own. */
  end(): void {
    if (this.shown) this.out.write('\n');
    this.shown = false;
  }
}
