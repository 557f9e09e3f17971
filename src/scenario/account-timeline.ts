// Each account's equity and floors over a replay, for the report's charts: sampled at every event that moves them
// (fills, balance changes, rolls), and every account after each step that can move them without such an event
// (a tick or a clock step marks positions at new prices), with the lock changes kept as markers.
import type { Kernel } from '../core/kernel/kernel.js';
import type { KernelEvent } from '../core/kernel/events.js';
import type { ScenarioStep } from './scenario-types.js';

/**
 * [time ms, equity cents, max-loss trigger cents, daily-loss trigger cents or null, and, for a sample, the prints
 * applied before it (PricePaths.pin) and the account's fills applied before it: a report draws the equity at the
 * prints after it, up to the next sample, for the positions those fills made (src/reports/market-moves.ts)]
 */
export type TimelinePoint = [number, number, number, number | null, number?, number?];

export interface AccountTimeline {
  points: TimelinePoint[];
  /** The account's fills so far (a fill dated in the past counts when it is applied). */
  fills: number;
  /** Lock added or removed: [time ms, "max_loss_breach added"]. */
  marks: Array<[number, string]>;
}

const MOVES = new Set(['fills.created', 'balance.updated', 'session.rolled', 'accounts.adjusted']);

/** Steps whose every effect on equity and floors comes with one of the MOVES events (sampled as it happens). */
const SAMPLED_BY_THEIR_EVENTS: ReadonlySet<ScenarioStep['kind']> = new Set([
  'fill',
  'order',
  'modify',
  'cancel',
  'oco',
  'expect',
]);

export class TimelineRecorder {
  readonly accounts = new Map<string, AccountTimeline>();

  /** @param printsApplied the prints the kernel has applied so far, stamped on each sample */
  constructor(
    private readonly kernel: Kernel,
    private readonly printsApplied: () => number,
  ) {
    kernel.events$.subscribe((event) => this.onEvent(event));
  }

  /** After a step: every account, unless the step's events have sampled what it moved (1,000 fills at one
   * instant would otherwise take a million samples). */
  afterStep(step: ScenarioStep): void {
    if (!SAMPLED_BY_THEIR_EVENTS.has(step.kind)) this.sampleAll();
  }

  sampleAll(): void {
    for (const accountId of this.kernel.read.accountIds()) this.sample(accountId);
  }

  private onEvent(event: KernelEvent): void {
    const accountId = event.data.account_id as string | undefined;
    if (event.type === 'accounts.locked' || event.type === 'accounts.unlocked') {
      this.timeline(accountId!).marks.push([
        event.timeMs,
        `${event.data.lock as string} ${event.type === 'accounts.locked' ? 'added' : 'removed'}`,
      ]);
    }
    if (event.type === 'fills.created') this.timeline(accountId!).fills++;
    if (MOVES.has(event.type)) {
      if (accountId) this.sample(accountId);
      else this.sampleAll();
    }
  }

  private sample(accountId: string): void {
    const numbers = this.kernel.read.riskNumbers(accountId);
    if (!numbers) return;
    const timeline = this.timeline(accountId);
    const points = timeline.points;
    const point: TimelinePoint = [
      this.kernel.nowMs,
      numbers.equityCents,
      numbers.maxLossTriggerCents,
      numbers.dailyLossTriggerCents,
      this.printsApplied(),
      timeline.fills,
    ];
    const last = points[points.length - 1];
    if (last && last[0] === point[0]) points[points.length - 1] = point;
    else points.push(point);
  }

  private timeline(accountId: string): AccountTimeline {
    let timeline = this.accounts.get(accountId);
    if (!timeline) {
      timeline = { points: [], marks: [], fills: 0 };
      this.accounts.set(accountId, timeline);
    }
    return timeline;
  }
}
