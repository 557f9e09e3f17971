// The venue's view of one instrument: resting orders by kind and price, orders waiting for the next print,
// and the last print. Where an order rests:
//   market orders, triggered stops, and IOC/FOK orders (settled at their first print) -> `immediate`
//   limit orders and triggered stop-limits                                            -> buy/sell limit ladders
//   untriggered stops and stop-limits                                                 -> buy/sell stop ladders
import type { Order } from './order-types.js';
import { PriceLadder } from './price-ladder.js';

export class InstrumentBook {
  readonly buyLimits = new PriceLadder<Order>();
  readonly sellLimits = new PriceLadder<Order>();
  readonly buyStops = new PriceLadder<Order>();
  readonly sellStops = new PriceLadder<Order>();
  immediate: Order[] = [];
  /** Orders still awaiting their first print since arrival, re-pricing or trigger. */
  fresh: Order[] = [];
  lastPrintTicks: number | undefined;
  /** Working orders in this book; a print with none to consider skips matching entirely. */
  workingCount = 0;

  add(order: Order): void {
    this.place(order);
    this.workingCount++;
    order.awaitingFirstPrint = true;
    this.fresh.push(order);
  }

  remove(order: Order): void {
    if (this.unplace(order)) this.workingCount--;
  }

  /** Moves a stop or stop-limit whose stop was hit to where its new behaviour rests. */
  trigger(order: Order): void {
    this.unplace(order);
    order.triggered = true;
    this.place(order);
    order.awaitingFirstPrint = true;
    this.fresh.push(order);
  }

  /**
   * Applies a modify that changes prices or raises the quantity: the order leaves its place, `change` updates
   * it, and it rests again at the back of its new price, meeting its next print as if it had just arrived.
   */
  requeue(order: Order, change: () => void): void {
    this.unplace(order);
    change();
    this.place(order);
    order.awaitingFirstPrint = true;
    this.fresh.push(order);
  }

  private place(order: Order): void {
    const ladder = this.ladderOf(order);
    if (ladder) ladder.add(this.restingPrice(order), order);
    else this.immediate.push(order);
  }

  private unplace(order: Order): boolean {
    const ladder = this.ladderOf(order);
    if (ladder) return ladder.remove(this.restingPrice(order), order);
    const at = this.immediate.indexOf(order);
    if (at < 0) return false;
    this.immediate.splice(at, 1);
    return true;
  }

  private ladderOf(order: Order): PriceLadder<Order> | undefined {
    if (order.tif === 'ioc' || order.tif === 'fok') return undefined;
    const restsAsStop = (order.type === 'stop' || order.type === 'stop_limit') && !order.triggered;
    if (restsAsStop) return order.side === 'buy' ? this.buyStops : this.sellStops;
    if (order.type === 'limit' || order.type === 'stop_limit')
      return order.side === 'buy' ? this.buyLimits : this.sellLimits;
    return undefined;
  }

  private restingPrice(order: Order): number {
    const restsAsStop = (order.type === 'stop' || order.type === 'stop_limit') && !order.triggered;
    return (restsAsStop ? order.stopTicks : order.limitTicks)!;
  }
}
