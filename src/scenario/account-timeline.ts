// Each account's equity and floors over a replay, for the report's charts: sampled after every step and at
// every event that moves them (fills, balance changes, locks), with the lock changes kept as markers.
import type { Kernel } from '../core/kernel/kernel.js';
import type { KernelEvent } from '../core/kernel/events.js';

/** [time ms, equity cents, max-loss trigger cents, daily-loss trigger cents or null] */
export type TimelinePoint = [number, number, number, number | null];

export interface AccountTimeline {
  points: TimelinePoint[];
  /** Lock added or removed: [time ms, "max_loss_breach added"]. */
  marks: Array<[number, string]>;
}

const MOVES = new Set(['fills.created', 'balance.updated', 'session.rolled', 'accounts.adjusted']);

export class TimelineRecorder {
  readonly accounts = new Map<string, AccountTimeline>();

  constructor(private readonly kernel: Kernel) {
    kernel.subscribe((event) => this.onEvent(event));
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
    if (MOVES.has(event.type)) {
      if (accountId) this.sample(accountId);
      else this.sampleAll();
    }
  }

  private sample(accountId: string): void {
    const numbers = this.kernel.read.riskNumbers(accountId);
    if (!numbers) return;
    const points = this.timeline(accountId).points;
    const point: TimelinePoint = [
      this.kernel.nowMs,
      numbers.equityCents,
      numbers.maxLossTriggerCents,
      numbers.dailyLossTriggerCents,
    ];
    const last = points[points.length - 1];
    if (last && last[0] === point[0]) points[points.length - 1] = point;
    else points.push(point);
  }

  private timeline(accountId: string): AccountTimeline {
    let timeline = this.accounts.get(accountId);
    if (!timeline) {
      timeline = { points: [], marks: [] };
      this.accounts.set(accountId, timeline);
    }
    return timeline;
  }
}
