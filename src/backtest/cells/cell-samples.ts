// What a cell samples every 30 minutes of its period (docs/backtesting.md#reading-reporthtml): the first traders'
// equity and triggers, each line ending at the sample that saw its account fail, and the percentiles of every
// account's headroom.
import type { Kernel } from '../../core/kernel/kernel.js';

/** [time ms, equity cents, max-loss trigger cents, daily-loss trigger cents or null] */
export type SamplePoint = [number, number, number, number | null];

/** [time ms, p10, p50, p90] of every account's headroom (equity − max-loss trigger, cents) at that time. */
export type FanPoint = [number, number, number, number];

export const SAMPLE_EVERY_MS = 30 * 60_000;

/** The accounts a cell samples: its first `sampleTraders` traders' lines and everyone's headroom. */
export class CellSamples {
  readonly samples: Array<{ trader: string; points: SamplePoint[] }>;
  readonly fan: FanPoint[] = [];
  private readonly ended: boolean[];

  constructor(
    private readonly kernel: Kernel,
    /** Every account, read at each sample; a trader's account may change (the funnel), so each is read through it. */
    private readonly all: ReadonlyArray<{ spec: { id: string }; accountId: string }>,
    sampleTraders: number,
  ) {
    this.samples = all.slice(0, sampleTraders).map((p) => ({ trader: p.spec.id, points: [] as SamplePoint[] }));
    this.ended = this.samples.map(() => false);
  }

  take(atMs: number): void {
    for (let i = 0; i < this.samples.length; i++) {
      const accountId = this.all[i]!.accountId;
      if (!this.ended[i]) this.samples[i]!.points.push(samplePoint(this.kernel, accountId, atMs));
      this.ended[i] = this.kernel.read.riskNumbers(accountId)!.failed;
    }
    this.fan.push(headroomPercentiles(this.kernel, this.all, atMs));
  }
}

function samplePoint(kernel: Kernel, accountId: string, atMs: number): SamplePoint {
  const numbers = kernel.read.riskNumbers(accountId)!;
  return [atMs, numbers.equityCents, numbers.maxLossTriggerCents, numbers.dailyLossTriggerCents];
}

/** p10, p50 and p90 (nearest rank) of equity − max-loss trigger over the accounts: 0 or less is a breach. */
function headroomPercentiles(kernel: Kernel, accounts: ReadonlyArray<{ accountId: string }>, atMs: number): FanPoint {
  const headroom = accounts.map((p) => {
    const numbers = kernel.read.riskNumbers(p.accountId)!;
    return numbers.equityCents - numbers.maxLossTriggerCents;
  });
  headroom.sort((a, b) => a - b);
  return [atMs, nearestRank(headroom, 0.1), nearestRank(headroom, 0.5), nearestRank(headroom, 0.9)];
}

function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}
