// An account's trading statistics (GET /v1/stats, docs/order-lifecycle.md#statistics): closed trades and their wins
// and losses, net P&L and commissions, the best and worst trade date, and the largest drawdown of the realized P&L.
import { Dec, formatCents } from '../../money.js';
import type { FillRecord, TradeRecord } from '../../positions/index.js';
import type { StatsJson } from '../../shapes/stats.js';
import type { RiskAccount } from '../accounts.js';

export function statsOf(
  account: RiskAccount,
  fills: readonly FillRecord[],
  trades: readonly Readonly<TradeRecord>[],
): StatsJson {
  const closed = trades.filter((t) => t.closedAtMs !== null);
  const wins = closed.filter((t) => t.realizedCents > 0).length;
  const losses = closed.filter((t) => t.realizedCents < 0).length;
  const days = [...account.dayPnlCents.values()];
  return {
    account_id: account.id,
    trades: closed.length,
    wins,
    losses,
    win_rate: closed.length === 0 ? '0.0000' : new Dec(wins).dividedBy(closed.length).toFixed(4),
    net_pnl: formatCents(account.realizedCents - account.commissionCents),
    commissions: formatCents(account.commissionCents),
    best_day: formatCents(days.length === 0 ? 0 : Math.max(...days)),
    worst_day: formatCents(days.length === 0 ? 0 : Math.min(...days)),
    trading_days: days.length,
    max_drawdown: formatCents(maxDrawdownCents(fills)),
  };
}

/**
 * The largest fall of the running realized P&L (net of commissions, fill by fill in time order) below its
 * highest point so far, which starts at zero: a positive amount, or 0 when it never fell.
 */
export function maxDrawdownCents(fills: readonly FillRecord[]): number {
  const ordered = [...fills].sort((a, b) => a.occurredAtMs - b.occurredAtMs || a.seq - b.seq);
  let running = 0;
  let peak = 0;
  let worst = 0;
  for (const fill of ordered) {
    running += fill.realizedCents - fill.commissionCents;
    peak = Math.max(peak, running);
    worst = Math.max(worst, peak - running);
  }
  return worst;
}
