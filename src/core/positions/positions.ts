// A net position per (account, instrument) (docs/order-lifecycle.md#positions-trades-and-lots): signed
// quantity (long > 0), FIFO open lots, realized P&L (total and by trade date), commissions, and the trade in
// progress. Unrealized P&L is taken at the instrument's mark (docs/risk-rules.md#balance-and-equity) from running
// lot totals, so reading it is O(1).
import { formatCents } from '../money.js';
import type { PositionJson } from '../shapes/position.js';
import { sideSign, type Execution } from './execution.js';
import { formatAveragePrice, millsToCents, pnlMills } from './instrument-pricing.js';
import { FifoLots, lotRealizedCents, type LotRecord, type OpenLot, type PositionSide } from './lots.js';
import type { InstrumentMark } from './marks.js';
import { openTrade, type TradeRecord } from './trades.js';

/** What one execution did to one position. */
export interface PositionChange {
  /** Σ realized P&L of the lots this execution closed. */
  readonly realizedCents: number;
  readonly closedLots: readonly LotRecord[];
  /** The trade this execution brought to flat, if any. */
  readonly closedTrade: TradeRecord | null;
  /** The trade this execution opened (from flat, or the remainder of a reversal), if any. */
  readonly openedTrade: TradeRecord | null;
  /** The trade the execution belongs to: the one it closed or added to, else the one it opened. */
  readonly tradeId: string;
}

/** A copy of a position's state at one moment (internal form: ticks and cents). */
export interface PositionView {
  readonly accountId: string;
  /** instrument_id */
  readonly symbol: string;
  /** Signed: long > 0, short < 0, flat 0. */
  readonly netQuantity: number;
  /** Exact average of the open lots' prices; null when flat. */
  readonly averagePrice: string | null;
  readonly realizedCents: number;
  /** At the instrument's mark; 0 when flat. */
  readonly unrealizedCents: number;
  readonly commissionCents: number;
  /** Price the unrealized P&L was taken at, in ticks (last print, else last fill of the instrument). */
  readonly markTicks: number | null;
  /** Open lots, oldest first (copies). */
  readonly openLots: readonly OpenLot[];
  /** Trade in progress; null when flat. */
  readonly openTradeId: string | null;
  /** When a fill last changed the position. */
  readonly updatedAtMs: number;
  readonly seq: number;
}

/** The position as the API shows it (docs/api.md#shapes): no average price when flat. */
export function positionToJson(view: PositionView): PositionJson {
  return {
    account_id: view.accountId,
    instrument_id: view.symbol,
    net_quantity: view.netQuantity,
    ...(view.averagePrice === null ? {} : { average_price: view.averagePrice }),
    realized_pnl: formatCents(view.realizedCents),
    unrealized_pnl: formatCents(view.unrealizedCents),
    updated_at: view.updatedAtMs,
  };
}

export class Position {
  netQuantity = 0;
  realizedCents = 0;
  commissionCents = 0;
  readonly lots = new FifoLots();
  /**
   * Realized P&L by GLOBEX trade date, one entry for every trade date the position traded on (0 when nothing
   * was realized that date), in the order first traded: the keys are the position's trade dates.
   */
  readonly realizedByTradeDateCents = new Map<string, number>();
  openTrade: TradeRecord | null = null;
  updatedAtMs = 0;

  constructor(
    readonly accountId: string,
    readonly symbol: string,
    readonly mark: InstrumentMark,
    /** Creation order among all positions: lists page by it. */
    readonly seq: number,
  ) {}

  /** Applies one execution of this (account, symbol): closes FIFO lots first, opens with what is left. */
  apply(e: Execution, newTradeId: () => string): PositionChange {
    const closing = this.isOpposite(sideSign(e.side)) ? Math.min(e.quantity, Math.abs(this.netQuantity)) : 0;
    const heldTradeId = this.openTrade?.tradeId;
    const closedLots = closing > 0 ? this.close(e, closing) : [];
    let realizedCents = 0;
    for (const lot of closedLots) realizedCents += lot.realizedCents;
    let closedTrade: TradeRecord | null = null;
    if (closing > 0 && this.netQuantity === 0) {
      closedTrade = this.requireOpenTrade();
      closedTrade.closedAtMs = e.occurredAtMs;
      this.openTrade = null;
    }
    const openedTrade = closing < e.quantity ? this.open(e, e.quantity - closing, newTradeId) : null;
    this.realizedCents += realizedCents;
    this.commissionCents += e.commissionCents;
    this.realizedByTradeDateCents.set(
      e.tradeDate,
      (this.realizedByTradeDateCents.get(e.tradeDate) ?? 0) + realizedCents,
    );
    this.updatedAtMs = Math.max(this.updatedAtMs, e.occurredAtMs);
    const tradeId = heldTradeId ?? openedTrade!.tradeId;
    return { realizedCents, closedLots, closedTrade, openedTrade, tradeId };
  }

  /** Unrealized P&L at the instrument's mark: Σ open lots (mark − open) × qty × sign in mills, rounded once. */
  unrealizedCents(): number {
    const markTicks = this.mark.markTicks;
    if (this.netQuantity === 0 || markTicks === null) return 0;
    const sign = this.netQuantity > 0 ? 1 : -1;
    // Σ (M − open_i) × qty_i = M × Σqty_i − Σ open_i × qty_i, all lots on one side.
    const diffTicksTimesQuantity = markTicks * this.lots.quantity - this.lots.ticksTimesQuantity;
    return millsToCents(pnlMills(this.mark.pricing, sign * diffTicksTimesQuantity, 1));
  }

  averagePrice(): string | null {
    if (this.netQuantity === 0) return null;
    return formatAveragePrice(this.mark.pricing, this.lots.ticksTimesQuantity, this.lots.quantity);
  }

  view(): PositionView {
    return {
      accountId: this.accountId,
      symbol: this.symbol,
      netQuantity: this.netQuantity,
      averagePrice: this.averagePrice(),
      realizedCents: this.realizedCents,
      unrealizedCents: this.unrealizedCents(),
      commissionCents: this.commissionCents,
      markTicks: this.mark.markTicks,
      openLots: this.lots.lots.map((lot) => ({ ...lot })),
      openTradeId: this.openTrade?.tradeId ?? null,
      updatedAtMs: this.updatedAtMs,
      seq: this.seq,
    };
  }

  private isOpposite(sign: 1 | -1): boolean {
    return this.netQuantity !== 0 && this.netQuantity > 0 !== sign > 0;
  }

  private requireOpenTrade(): TradeRecord {
    if (this.openTrade === null) throw new Error(`position ${this.accountId}/${this.symbol} is open without a trade`);
    return this.openTrade;
  }

  /** Closes `quantity` contracts FIFO against execution `e`; each portion of an open lot becomes a lot record. */
  private close(e: Execution, quantity: number): LotRecord[] {
    const trade = this.requireOpenTrade();
    const side: PositionSide = this.netQuantity > 0 ? 'long' : 'short';
    const closed = this.lots.take(quantity).map((part): LotRecord => ({
      tradeId: trade.tradeId,
      accountId: this.accountId,
      symbol: this.symbol,
      side,
      quantity: part.quantity,
      openExecutionId: part.executionId,
      openPriceTicks: part.priceTicks,
      openedAtMs: part.openedAtMs,
      closeExecutionId: e.executionId,
      closePriceTicks: e.priceTicks,
      closedAtMs: e.occurredAtMs,
      realizedCents: lotRealizedCents(this.mark.pricing, side, part.priceTicks, e.priceTicks, part.quantity),
    }));
    for (const lot of closed) {
      trade.lots.push(lot);
      trade.realizedCents += lot.realizedCents;
    }
    this.netQuantity += side === 'long' ? -quantity : quantity;
    return closed;
  }

  /** Opens `quantity` contracts at `e`'s price, starting a trade when flat; returns the trade it started. */
  private open(e: Execution, quantity: number, newTradeId: () => string): TradeRecord | null {
    const started =
      this.openTrade === null
        ? openTrade(
            newTradeId(),
            this.accountId,
            this.symbol,
            e.side === 'buy' ? 'long' : 'short',
            e.executionId,
            e.occurredAtMs,
          )
        : null;
    const trade = started ?? this.requireOpenTrade();
    this.openTrade = trade;
    this.lots.add(e.executionId, e.priceTicks, e.occurredAtMs, quantity);
    this.netQuantity += sideSign(e.side) * quantity;
    trade.maxQuantity = Math.max(trade.maxQuantity, Math.abs(this.netQuantity));
    return started;
  }
}
