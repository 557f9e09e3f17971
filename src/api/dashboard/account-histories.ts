// Each account's story for the dashboard (docs/api.md#the-dashboard): its equity and floors at each event that moves
// them, its fills and its lock changes, kept as the firm stream's events go out, so a page that connects (or reloads)
// draws what happened before it and then follows the stream from the sequence the histories stand at. The
// histories start with the stream's numbering (the first subscriber, or the first histories read): they begin with
// every account's state and fills at that moment, and an event numbered before it is already in that state. A reset
// starts them again. What one account keeps is bounded (the latest MAX_KEPT points, fills and lock changes).
import type { Kernel } from '../../core/kernel/kernel.js';
import type { StreamEvent } from '../streams/stream-events.js';
import type { StreamLog } from '../streams/stream-log.js';

/** [time ms, equity cents, max-loss trigger cents, daily-loss trigger cents or null] */
export type HistoryPoint = [number, number, number, number | null];

export interface AccountHistory {
  points: HistoryPoint[];
  /** The times of the latest fills (fillCount counts them all). */
  fills: number[];
  fillCount: number;
  /** [time ms, lock, whether it was added] */
  locks: Array<[number, string, boolean]>;
}

/**
 * Points, fills and lock changes kept per account: as many steps as a chart a page wide can show, so what the
 * dashboard keeps grows with the accounts, never with their activity.
 */
export const MAX_KEPT = 500;

/** Events after which an account's equity or floors may have moved, and the account may be new. */
const SAMPLED = new Set(['account.created', 'fills.created', 'balance.updated', 'account.locked', 'account.unlocked']);

export class AccountHistories {
  private readonly accounts = new Map<string, AccountHistory>();
  /** The last event numbered when the histories started (undefined before): the state then included them. */
  private startedAt: number | undefined;

  constructor(
    private readonly kernel: () => Kernel,
    private readonly log: StreamLog,
  ) {
    log.events$.subscribe((event) => this.onEvent(event));
  }

  /** Forgets everything (a reset): the histories start again with the next event or read. */
  clear(): void {
    this.accounts.clear();
    this.startedAt = undefined;
  }

  /** Starts the stream's numbering and the histories, and answers the sequence they include. */
  start(): number {
    this.log.activate();
    this.ensureStarted();
    return this.log.lastNumbered;
  }

  /** An account's history so far (undefined for an account the histories do not know). */
  of(accountId: string): AccountHistory | undefined {
    return this.accounts.get(accountId);
  }

  private ensureStarted(): void {
    if (this.startedAt !== undefined) return;
    this.startedAt = this.log.lastNumbered;
    const read = this.kernel().read;
    for (const accountId of read.accountIds()) this.sample(this.historyOf(accountId), accountId, read.clock().now_ms);
    for (let cursor: string | undefined; ;) {
      const page = read.fills({}, {}, { limit: 500, cursor });
      if (!page.ok) break;
      for (const fill of page.body.items) this.addFill(this.historyOf(fill.account_id), fill.occurred_at);
      if (!page.body.next_cursor) break;
      cursor = page.body.next_cursor;
    }
  }

  private onEvent(event: StreamEvent): void {
    this.ensureStarted();
    const accountId = event.account_id;
    if (event.sequence <= this.startedAt! || !accountId || !SAMPLED.has(event.type)) return;
    const history = this.historyOf(accountId);
    if (event.type === 'fills.created') this.addFill(history, event.occurred_at);
    if (event.type === 'account.locked' || event.type === 'account.unlocked')
      keepLatest(history.locks, [event.occurred_at, String(event.data.lock), event.type === 'account.locked']);
    this.sample(history, accountId, event.occurred_at);
  }

  private addFill(history: AccountHistory, timeMs: number): void {
    history.fillCount++;
    keepLatest(history.fills, timeMs);
  }

  /** The account's figures now, drawn at `timeMs`; a second sample at the same time replaces the first. */
  private sample(history: AccountHistory, accountId: string, timeMs: number): void {
    const numbers = this.kernel().read.riskNumbers(accountId);
    if (!numbers) return;
    const point: HistoryPoint = [
      timeMs,
      numbers.equityCents,
      numbers.maxLossTriggerCents,
      numbers.dailyLossTriggerCents,
    ];
    const last = history.points.at(-1);
    if (last && last[0] >= timeMs)
      history.points[history.points.length - 1] = [last[0], ...point.slice(1)] as HistoryPoint;
    else keepLatest(history.points, point);
  }

  private historyOf(accountId: string): AccountHistory {
    let history = this.accounts.get(accountId);
    if (!history) {
      history = { points: [], fills: [], fillCount: 0, locks: [] };
      this.accounts.set(accountId, history);
    }
    return history;
  }
}

/** Appends, dropping the oldest tenth once the list is past `max` (a tenth at a time, not one item per item). */
export function keepLatest<T>(list: T[], item: T, max = MAX_KEPT): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - Math.floor(max * 0.9));
}
