// Fill records: every execution the book applied, in order, with the realized P&L of its lots.
import { formatCents } from '../money.js';
import type { FillJson } from '../shapes/fill.js';
import type { Execution } from './execution.js';
import { formatTicks, pricingOf } from './instrument-pricing.js';

/**
 * Internal form of a fill: the execution as applied, its realized P&L (Σ of the lots it closed), the trade it
 * belongs to (for a reversal, the trade it closed) and its place in the book's order of fills.
 */
export type FillRecord = Execution & { readonly realizedCents: number; readonly tradeId: string; readonly seq: number };

export function fillRecordOf(e: Execution, realizedCents: number, tradeId: string, seq: number): FillRecord {
  return {
    executionId: e.executionId,
    orderId: e.orderId,
    accountId: e.accountId,
    symbol: e.symbol,
    side: e.side,
    quantity: e.quantity,
    priceTicks: e.priceTicks,
    occurredAtMs: e.occurredAtMs,
    tradeDate: e.tradeDate,
    commissionCents: e.commissionCents,
    realizedCents,
    tradeId,
    seq,
  };
}

export function fillToJson(fill: FillRecord): FillJson {
  return {
    execution_id: fill.executionId,
    ...(fill.orderId === null ? {} : { order_id: fill.orderId }),
    account_id: fill.accountId,
    instrument_id: fill.symbol,
    side: fill.side,
    quantity: fill.quantity,
    price: formatTicks(pricingOf(fill.symbol), fill.priceTicks),
    commission: formatCents(fill.commissionCents),
    realized_pnl: formatCents(fill.realizedCents),
    trade_id: fill.tradeId,
    occurred_at: fill.occurredAtMs,
    trade_date: fill.tradeDate,
  };
}
