// The journal as the simulation saw it written (docs/api.md#persistence): every line the sandbox handed its store,
// in order, each tagged with the request that wrote it. A reset starts a new generation (the store empties its
// journal in the reset's commit). After a crash, the journal on disk must be a prefix of one generation that keeps
// every line of every acknowledged request, and each request's lines must be there all or not at all.
import { InvariantFailure } from './sim-failure.js';

export interface ShadowLine {
  readonly text: string;
  /** The request whose handling wrote it (undefined: the restart's own lines, or a WebSocket subscription's). */
  readonly request: number | undefined;
}

/** Where the journal on disk stands after a crash, and which requests it kept. */
export interface Reconciled {
  generation: number;
  length: number;
  /** Requests with lines on disk (all of them: a request's lines are kept whole). */
  kept: ReadonlySet<number>;
}

export class ShadowJournal {
  private generations: ShadowLine[][] = [[]];
  /** How many lines each request wrote. */
  private readonly counts = new Map<number, number>();

  append(text: string, request: number | undefined): void {
    this.generations.at(-1)!.push({ text, request });
    if (request !== undefined) this.counts.set(request, (this.counts.get(request) ?? 0) + 1);
  }

  /** How many lines request `no` has written so far. */
  linesOf(no: number): number {
    return this.counts.get(no) ?? 0;
  }

  /** A reset: the next lines replace the journal. */
  startOver(): void {
    this.generations.push([]);
  }

  /** The lines since the last reset (what a journal replay applies). */
  get current(): readonly ShadowLine[] {
    return this.generations.at(-1)!;
  }

  get generation(): number {
    return this.generations.length - 1;
  }

  /** After a restart: the journal on disk is all there is, by no request of this process. */
  restartFrom(stored: readonly string[]): void {
    this.generations = [stored.map((text) => ({ text, request: undefined }))];
  }

  /**
   * The generation the journal on disk (`stored`) is a prefix of, checked against what was acknowledged: the latest
   * generation that fits, else an InvariantFailure that says what is missing, half there, or not a prefix at all.
   */
  reconcile(stored: readonly string[], acknowledged: (request: number) => boolean): Reconciled {
    let firstProblem: InvariantFailure | undefined;
    for (let generation = this.generations.length - 1; generation >= 0; generation--) {
      const lines = this.generations[generation]!;
      if (!isPrefix(stored, lines)) continue;
      const problem = this.problemAt(generation, stored.length, acknowledged);
      if (!problem) return { generation, length: stored.length, kept: requestsIn(lines.slice(0, stored.length)) };
      firstProblem ??= problem;
    }
    throw (
      firstProblem ??
      new InvariantFailure(
        'journal-not-a-prefix',
        `the journal on disk (${stored.length} lines) is not a prefix of any journal the sandbox wrote: ` +
          `first line that differs from the last generation: ${firstDifference(stored, this.current)}`,
      )
    );
  }

  private problemAt(
    generation: number,
    length: number,
    acknowledged: (request: number) => boolean,
  ): InvariantFailure | undefined {
    const lines = this.generations[generation]!;
    for (let later = generation + 1; later < this.generations.length; later++) {
      const lost = this.generations[later]!.find((l) => l.request !== undefined && acknowledged(l.request));
      if (lost)
        return new InvariantFailure(
          'acknowledged-write-lost',
          `request #${lost.request} was answered, but the reset before it is not on disk: ${lost.text.slice(0, 160)}`,
        );
    }
    const kept = requestsIn(lines.slice(0, length));
    for (const line of lines.slice(length)) {
      if (line.request === undefined) continue;
      if (acknowledged(line.request))
        return new InvariantFailure(
          'acknowledged-write-lost',
          `request #${line.request} was answered, but its line is not on disk after the crash: ${line.text.slice(0, 160)}`,
        );
      if (kept.has(line.request))
        return new InvariantFailure(
          'half-written',
          `request #${line.request} is half on disk after the crash: this line of it is missing: ${line.text.slice(0, 160)}`,
        );
    }
    return undefined;
  }
}

function isPrefix(stored: readonly string[], lines: readonly ShadowLine[]): boolean {
  if (stored.length > lines.length) return false;
  return stored.every((text, i) => lines[i]!.text === text);
}

function requestsIn(lines: readonly ShadowLine[]): Set<number> {
  return new Set(lines.flatMap((l) => (l.request === undefined ? [] : [l.request])));
}

function firstDifference(stored: readonly string[], lines: readonly ShadowLine[]): string {
  const at = stored.findIndex((text, i) => lines[i]?.text !== text);
  if (at < 0) return `none; the disk has ${stored.length} lines, the journal ${lines.length}`;
  return `line ${at + 1}: on disk ${stored[at]!.slice(0, 120)}, written ${lines[at]?.text.slice(0, 120) ?? '(nothing)'}`;
}
