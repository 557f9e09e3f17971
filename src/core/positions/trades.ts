// Trades (docs/order-lifecycle.md#positions-trades-and-lots): one round trip of an (account, instrument) from flat to
// flat. A reversal closes the current trade and opens the next from the same execution. A trade's lots are its closed
// lots, in the order closed.
import { formatCents } from '../money.js';
import type { TradeJson, TradeLotsJson } from '../shapes/fill.js';
import { lotToJson, type LotRecord, type PositionSide } from './lots.js';

/** Internal form of a trade (cents, ms); the book updates it until the trade closes. */
export interface TradeRecord {
  readonly tradeId: string;
  /** Creation order among all trades, set by the book: lists page by it. */
  seq: number;
  readonly accountId: string;
  /** instrument_id */
  readonly symbol: string;
  readonly side: PositionSide;
  /** Execution that opened the trade. */
  readonly openExecutionId: string;
  readonly openedAtMs: number;
  /** Null while the trade is open. */
  closedAtMs: number | null;
  /** Largest absolute position during the trade. */
  maxQuantity: number;
  /** Σ realized P&L of its lots. */
  realizedCents: number;
  /** Its closed lots, in the order they closed. Lots still open are on the position, not here. */
  readonly lots: LotRecord[];
}

export function openTrade(
  tradeId: string,
  accountId: string,
  symbol: string,
  side: PositionSide,
  executionId: string,
  openedAtMs: number,
): TradeRecord {
  return {
    tradeId,
    seq: 0,
    accountId,
    symbol,
    side,
    openExecutionId: executionId,
    openedAtMs,
    closedAtMs: null,
    maxQuantity: 0,
    realizedCents: 0,
    lots: [],
  };
}

export function tradeToJson(trade: TradeRecord): TradeJson {
  return {
    trade_id: trade.tradeId,
    account_id: trade.accountId,
    instrument_id: trade.symbol,
    direction: trade.side,
    quantity: trade.maxQuantity,
    opened_at: trade.openedAtMs,
    ...(trade.closedAtMs === null ? {} : { closed_at: trade.closedAtMs }),
    realized_pnl: formatCents(trade.realizedCents),
    status: trade.closedAtMs === null ? 'open' : 'closed',
  };
}

export function tradeLotsToJson(trade: TradeRecord): TradeLotsJson {
  return { trade_id: trade.tradeId, lots: trade.lots.map(lotToJson) };
}
