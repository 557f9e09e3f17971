// FIFO lots (docs/order-lifecycle.md#positions-trades-and-lots): closing executions pair with opening executions
// first in, first out. A closed lot is `quantity` contracts of one opening execution paired with one closing
// execution; its realized P&L is (close − open) × quantity × point value, sign by side, computed in mills and rounded
// half-even to cents per lot. Commissions are never part of a lot.
import { formatCents } from '../money.js';
import type { LotJson } from '../shapes/fill.js';
import { formatTicks, millsToCents, pnlMills, pricingOf, type InstrumentPricing } from './instrument-pricing.js';

export type PositionSide = 'long' | 'short';

/** What remains open of one opening execution. All open lots of a position are on the position's side. */
export interface OpenLot {
  readonly executionId: string;
  readonly priceTicks: number;
  readonly openedAtMs: number;
  /** Contracts still open (>= 1 while the lot is queued). */
  quantity: number;
}

/** A closed lot, internal form (ticks, cents); `lotToJson` gives the interface's form. */
export interface LotRecord {
  readonly tradeId: string;
  readonly accountId: string;
  /** instrument_id */
  readonly symbol: string;
  /** Side of the position the lot belonged to. */
  readonly side: PositionSide;
  readonly quantity: number;
  readonly openExecutionId: string;
  readonly openPriceTicks: number;
  readonly openedAtMs: number;
  readonly closeExecutionId: string;
  readonly closePriceTicks: number;
  readonly closedAtMs: number;
  readonly realizedCents: number;
}

export function lotToJson(lot: LotRecord): LotJson {
  const pricing = pricingOf(lot.symbol);
  return {
    quantity: lot.quantity,
    open_execution_id: lot.openExecutionId,
    open_price: formatTicks(pricing, lot.openPriceTicks),
    opened_at: lot.openedAtMs,
    close_execution_id: lot.closeExecutionId,
    close_price: formatTicks(pricing, lot.closePriceTicks),
    closed_at: lot.closedAtMs,
    realized_pnl: formatCents(lot.realizedCents),
  };
}

/** +1 for long, −1 for short. */
export function positionSideSign(side: PositionSide): 1 | -1 {
  return side === 'long' ? 1 : -1;
}

/** Exact P&L in mills of `quantity` contracts held on `side` from `openTicks` to `closeTicks` (before rounding). */
export function lotPnlMills(
  pricing: InstrumentPricing,
  side: PositionSide,
  openTicks: number,
  closeTicks: number,
  quantity: number,
): number {
  return pnlMills(pricing, (closeTicks - openTicks) * positionSideSign(side), quantity);
}

/** A lot's realized P&L in cents: its exact mills rounded half-even once (ZN 1 tick: 15625 mills -> 1562). */
export function lotRealizedCents(
  pricing: InstrumentPricing,
  side: PositionSide,
  openTicks: number,
  closeTicks: number,
  quantity: number,
): number {
  return millsToCents(lotPnlMills(pricing, side, openTicks, closeTicks, quantity));
}

/**
 * The open lots of one position in FIFO order, with running totals so that the average price and the
 * unrealized P&L are O(1): `quantity` = Σ lot quantities, `ticksTimesQuantity` = Σ lot ticks × quantity.
 */
export class FifoLots {
  private readonly queue: OpenLot[] = [];
  private openQuantity = 0;
  private openTicksTimesQuantity = 0;

  get quantity(): number {
    return this.openQuantity;
  }

  get ticksTimesQuantity(): number {
    return this.openTicksTimesQuantity;
  }

  /** The open lots, oldest first (live, read-only). */
  get lots(): readonly Readonly<OpenLot>[] {
    return this.queue;
  }

  /** Queues a new lot at the back. */
  add(executionId: string, priceTicks: number, openedAtMs: number, quantity: number): void {
    this.queue.push({ executionId, priceTicks, openedAtMs, quantity });
    this.openQuantity += quantity;
    this.openTicksTimesQuantity += priceTicks * quantity;
  }

  /**
   * Takes `quantity` contracts from the front, oldest lot first, possibly splitting the last lot touched.
   * Returns the portions taken (each a copy with the quantity taken); the caller closes them.
   */
  take(quantity: number): OpenLot[] {
    if (quantity > this.openQuantity)
      throw new RangeError(`cannot close ${quantity} of ${this.openQuantity} open contracts`);
    const taken: OpenLot[] = [];
    let left = quantity;
    let emptied = 0;
    while (left > 0) {
      const lot = this.queue[emptied];
      if (lot === undefined) throw new Error('FIFO lots: running quantity out of step with the queue');
      const part = Math.min(left, lot.quantity);
      taken.push({
        executionId: lot.executionId,
        priceTicks: lot.priceTicks,
        openedAtMs: lot.openedAtMs,
        quantity: part,
      });
      lot.quantity -= part;
      left -= part;
      this.openQuantity -= part;
      this.openTicksTimesQuantity -= lot.priceTicks * part;
      if (lot.quantity === 0) emptied++;
    }
    if (emptied > 0) this.queue.splice(0, emptied);
    return taken;
  }
}
