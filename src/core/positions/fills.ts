// Fill records: every execution the book applied, in order, with the realized P&L of its lots.
import { formatCents } from '../money.js';
import type { Execution, Side } from './execution.js';
import { formatTicks, pricingOf } from './instrument-pricing.js';

/** Internal form of a fill: the execution as applied plus its realized P&L (Σ of the lots it closed). */
export type FillRecord = Execution & { readonly realizedCents: number };

/** Fill record of the interface. */
export interface FillJson {
  execution_id: string;
  order_id: string | null;
  account_id: string;
  instrument_id: string;
  side: Side;
  quantity: number;
  price: string;
  occurred_at: number;
  trade_date: string;
  commission: string;
  realized_pnl: string;
}

export function fillRecordOf(e: Execution, realizedCents: number): FillRecord {
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
  };
}

export function fillToJson(fill: FillRecord): FillJson {
  return {
    execution_id: fill.executionId,
    order_id: fill.orderId,
    account_id: fill.accountId,
    instrument_id: fill.symbol,
    side: fill.side,
    quantity: fill.quantity,
    price: formatTicks(pricingOf(fill.symbol), fill.priceTicks),
    occurred_at: fill.occurredAtMs,
    trade_date: fill.tradeDate,
    commission: formatCents(fill.commissionCents),
    realized_pnl: formatCents(fill.realizedCents),
  };
}
