// The fill model (docs/order-lifecycle.md#fill-model), applied to one trade print of one instrument. Order of work at a
// print:
//   1. stops at or through the print trigger (a stop becomes a market order, a stop-limit a limit order);
//   2. every order the print can fill is ranked by price (market orders first, then limits by how far the
//      print is through them), then by arrival; a sized print is shared in that order;
//   3. IOC and FOK orders meeting their first print are settled: IOC keeps nothing, FOK fills all or nothing;
//   4. a fill of an OCO member cancels its working siblings (reason oco_sibling_filled).
// Prices: market fills are the print moved `slippageTicks` against the order; a limit fills at the print's
// price when it is marketable against its first print since arrival, otherwise at its limit price.
import type { InstrumentBook } from './instrument-book.js';
import { remainingQuantity, type Order } from './order-types.js';
import { moveVenuePhase } from './venue-phase.js';

export interface FillModel {
  /** Time for a new order to reach the venue. */
  latencyMs: number;
  cancelLatencyMs: number;
  modifyLatencyMs: number;
  slippageTicks: number;
  /** touch: a limit fills on a print at its price; through: only on a print strictly better. */
  limitFill: 'touch' | 'through';
}

export const DEFAULT_FILL_MODEL: FillModel = {
  latencyMs: 0,
  cancelLatencyMs: 0,
  modifyLatencyMs: 0,
  slippageTicks: 0,
  limitFill: 'touch',
};

export type VenueAction =
  | { kind: 'fill'; order: Order; quantity: number; priceTicks: number }
  | { kind: 'cancel'; order: Order; reason: string };

/** What the matching needs beyond the print's own book: OCO siblings may rest in other instruments' books. */
export interface SiblingVenue {
  /** The other members of the order's OCO group that are not done yet. */
  workingSiblings(order: Order): readonly Order[];
  bookOf(symbol: string): InstrumentBook;
}

interface Candidate {
  order: Order;
  /** Ticks the print is through the order's limit; Infinity for market orders. */
  edgeTicks: number;
  remaining: number;
}

/** Matches one print against a book; removes what it fills or settles and returns the actions in order. */
export function matchPrint(
  book: InstrumentBook,
  priceTicks: number,
  size: number,
  model: FillModel,
  venue: SiblingVenue,
): VenueAction[] {
  book.lastPrintTicks = priceTicks;
  const actions: VenueAction[] = [];
  if (book.workingCount > 0) {
    triggerStops(book, priceTicks);
    const candidates = collectCandidates(book, priceTicks, model.limitFill === 'through');
    allocate(book, candidates, priceTicks, size, model, venue, actions);
    settleImmediate(book, actions);
  }
  for (const order of book.fresh) order.awaitingFirstPrint = false;
  book.fresh = [];
  return actions;
}

function triggerStops(book: InstrumentBook, priceTicks: number): void {
  const hit: Order[] = [];
  book.buyStops.collectFromBottom(priceTicks, false, hit);
  book.sellStops.collectFromTop(priceTicks, false, hit);
  for (const order of hit) book.trigger(order);
}

function collectCandidates(book: InstrumentBook, priceTicks: number, through: boolean): Candidate[] {
  const orders: Order[] = [];
  book.buyLimits.collectFromTop(priceTicks, through, orders);
  book.sellLimits.collectFromBottom(priceTicks, through, orders);
  const candidates: Candidate[] = [];
  for (const order of book.immediate) {
    const edgeTicks = order.type === 'limit' || order.type === 'stop_limit' ? limitEdge(order, priceTicks) : Infinity;
    const marketable = through ? edgeTicks > 0 : edgeTicks >= 0;
    if (marketable) candidates.push({ order, edgeTicks, remaining: remainingQuantity(order) });
  }
  for (const order of orders)
    candidates.push({ order, edgeTicks: limitEdge(order, priceTicks), remaining: remainingQuantity(order) });
  return candidates.sort(byPriceThenArrival);
}

function byPriceThenArrival(a: Candidate, b: Candidate): number {
  if (a.edgeTicks !== b.edgeTicks) return a.edgeTicks > b.edgeTicks ? -1 : 1;
  return a.order.arrivalSeq - b.order.arrivalSeq;
}

function limitEdge(order: Order, priceTicks: number): number {
  const limit = order.limitTicks!;
  return order.side === 'buy' ? limit - priceTicks : priceTicks - limit;
}

function allocate(
  book: InstrumentBook,
  candidates: Candidate[],
  priceTicks: number,
  size: number,
  model: FillModel,
  venue: SiblingVenue,
  actions: VenueAction[],
): void {
  let available = size;
  const cancelled = new Set<Order>();
  for (const { order, edgeTicks, remaining } of candidates) {
    if (available <= 0) break;
    if (cancelled.has(order)) continue;
    if (order.tif === 'fok' && remaining > available) continue;
    const quantity = Math.min(remaining, available);
    available -= quantity;
    actions.push({ kind: 'fill', order, quantity, priceTicks: fillPrice(order, edgeTicks, priceTicks, model) });
    if (quantity === remaining) {
      book.remove(order);
      moveVenuePhase(order, 'done');
    }
    for (const sibling of venue.workingSiblings(order)) {
      if (cancelled.has(sibling)) continue;
      cancelled.add(sibling);
      // A group may span instruments: the sibling leaves its own book, not the one that printed.
      venue.bookOf(sibling.symbol).remove(sibling);
      moveVenuePhase(sibling, 'done');
      actions.push({ kind: 'cancel', order: sibling, reason: 'oco_sibling_filled' });
    }
  }
}

function fillPrice(order: Order, edgeTicks: number, priceTicks: number, model: FillModel): number {
  if (edgeTicks === Infinity)
    return order.side === 'buy' ? priceTicks + model.slippageTicks : priceTicks - model.slippageTicks;
  return order.awaitingFirstPrint ? priceTicks : order.limitTicks!;
}

/** IOC and FOK orders are settled at the first print after arrival: whatever did not fill is cancelled. */
function settleImmediate(book: InstrumentBook, actions: VenueAction[]): void {
  const settled = book.immediate.filter((o) => (o.tif === 'ioc' || o.tif === 'fok') && o.phase === 'working');
  for (const order of settled) {
    book.remove(order);
    moveVenuePhase(order, 'done');
    actions.push({ kind: 'cancel', order, reason: order.tif === 'ioc' ? 'ioc_remainder_cancelled' : 'fok_not_filled' });
  }
}
