// A trader's executions as round trips (docs/backtesting.md#calibrating-synthetic-traders): per instrument, a round
// trip runs from flat to flat. Its fills are matched lot by lot, first in first out, for its P&L; a broker that fills
// one order in parts (three contracts as 1 + 2) still makes one round trip. Prices are integer ticks of the
// instrument, so distances and P&L in ticks are exact.
import { parseSymbol } from '../core/instruments.js';
import { Dec, priceToTicks } from '../core/money.js';
import type { TraderFill } from '../import/trader-fill.js';

export interface RoundTrip {
  symbol: string;
  side: 'buy' | 'sell';
  /** The most contracts held during it. */
  quantity: number;
  entryMs: number;
  /** When it was flat again. */
  exitMs: number;
  /** Sum over its lots (FIFO) of contracts × exit − entry ticks in its favour: > 0 a win, < 0 a loss, 0 a scratch. */
  pnlTicks: number;
  /**
   * Ticks from its last entry fill to its first exit fill (≥ 0): for a bracket, the stop or target distance, measured
   * from the price the bracket was placed from.
   */
  exitDistanceTicks: number;
}

interface Lot {
  priceTicks: number;
  remaining: number;
}

interface OpenTrip {
  trip: RoundTrip;
  lots: Lot[];
  lastEntryTicks: number;
  exited: boolean;
}

/** The round trips of one trader's fills (in time order), in the order they were entered; open ones are left out. */
export function roundTripsOf(fills: readonly TraderFill[]): RoundTrip[] {
  const open = new Map<string, OpenTrip>();
  const done: RoundTrip[] = [];
  for (const fill of fills) {
    const priceTicks = ticksOf(fill);
    let quantity = fill.quantity;
    const current = open.get(fill.symbol);
    if (current && current.trip.side !== fill.side) {
      quantity = closeLots(current, priceTicks, quantity);
      if (!current.exited) current.trip.exitDistanceTicks = Math.abs(priceTicks - current.lastEntryTicks);
      current.exited = true;
      if (current.lots.length === 0) {
        current.trip.exitMs = fill.timeMs;
        done.push(current.trip);
        open.delete(fill.symbol);
      }
    }
    if (quantity === 0) continue;
    const adding = open.get(fill.symbol);
    if (adding) {
      adding.lots.push({ priceTicks, remaining: quantity });
      adding.lastEntryTicks = priceTicks;
      adding.trip.quantity = Math.max(adding.trip.quantity, held(adding.lots));
    } else {
      // From flat, or what is left of a fill that reversed the position: a new round trip.
      const trip = {
        symbol: fill.symbol,
        side: fill.side,
        quantity,
        entryMs: fill.timeMs,
        exitMs: 0,
        pnlTicks: 0,
        exitDistanceTicks: 0,
      };
      open.set(fill.symbol, {
        trip,
        lots: [{ priceTicks, remaining: quantity }],
        lastEntryTicks: priceTicks,
        exited: false,
      });
    }
  }
  // Array.prototype.sort is stable: trips entered at one instant keep their order.
  return done.sort((a, b) => a.entryMs - b.entryMs);
}

/** Closes the oldest lots first; returns the contracts of the fill left over (a reversal). */
function closeLots(open: OpenTrip, priceTicks: number, quantity: number): number {
  const direction = open.trip.side === 'buy' ? 1 : -1;
  while (quantity > 0 && open.lots.length > 0) {
    const lot = open.lots[0]!;
    const taken = Math.min(quantity, lot.remaining);
    open.trip.pnlTicks += taken * direction * (priceTicks - lot.priceTicks);
    lot.remaining -= taken;
    quantity -= taken;
    if (lot.remaining === 0) open.lots.shift();
  }
  return quantity;
}

function held(lots: readonly Lot[]): number {
  return lots.reduce((s, lot) => s + lot.remaining, 0);
}

function ticksOf(fill: TraderFill): number {
  return priceToTicks(new Dec(fill.price), new Dec(parseSymbol(fill.symbol).spec.tickSize));
}
