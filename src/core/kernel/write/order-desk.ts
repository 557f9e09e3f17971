// Order commands and their venue side: placement (202, then arrival after latency), cancel and modify (they
// travel with latency too, so a fill can beat them), DAY expiry at the session close (docs/order-lifecycle.md).
// What the venue refuses after acceptance is in order-venue-checks.ts, the OCO commands in oco-commands.ts.
import type { Dec } from '../../money.js';
import { canonicalSymbol, parseSymbol, UnknownInstrumentError, type InstrumentSpec } from '../../instruments.js';
import { IdIndex } from '../../id-index.js';
import { CommandRefusal } from '../../outcome.js';
import type { SiblingVenue } from '../../orders/fill-model.js';
import { InstrumentBook } from '../../orders/instrument-book.js';
import { OcoGroups } from '../../orders/oco.js';
import { initialOrderState, nextOrderState } from '../../orders/order-lifecycle.js';
import { TERMINAL_STATUSES, type OrderLifecycleEvent, type OrderStatus } from '../../orders/order.machine.js';
import {
  parseModifyOrder,
  parsePlaceOrder,
  type ModifyOrderRequest,
  type PlaceOrderRequest,
} from '../../orders/order-request.js';
import type { Order, OrderOrigin, Side } from '../../orders/order-types.js';
import { lastStatusRecord, statusCount } from '../../orders/status-log.js';
import { moveVenuePhase } from '../../orders/venue-phase.js';
import type { OrderJson } from '../../shapes/order.js';
import type { AccountBook } from '../accounts.js';
import type { KernelContext } from '../context.js';
import { addOcoCompanion, linkOco } from './oco-commands.js';
import { orderJson } from '../read/order-json.js';
import { ticksOf } from './order-prices.js';
import { describeChange, modifyRejection, refusalAtArrival, type OrderGate } from './order-venue-checks.js';
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';

export class OrderDesk implements SiblingVenue {
  /** Every order in creation order: lists page through it. */
  readonly orderList: Order[] = [];
  private readonly byId = new IdIndex(
    () => this.orderList,
    (order: Order) => order.id,
  );
  readonly books = new Map<string, InstrumentBook>();
  readonly oco = new OcoGroups();
  /** Each account's orders that may still be working, in placement order; finished ones are dropped as found. */
  private readonly unfinishedByAccount = new Map<string, Order[]>();
  private venueSeq = 0;
  private readonly tickSizes = new Map<string, InstanceType<typeof Dec>>();
  private readonly instruments = new Map<string, { spec: InstrumentSpec | undefined; symbol: string }>();

  /** Prices to ticks, with the tick sizes cached (order-prices.ts). */
  private readonly ticks = (spec: InstrumentSpec, price: string, field: string): number =>
    ticksOf(this.tickSizes, spec, price, field);

  constructor(
    private readonly ctx: KernelContext,
    private readonly accounts: AccountBook,
    private readonly gate: OrderGate,
  ) {}

  bookOf(symbol: string): InstrumentBook {
    let book = this.books.get(symbol);
    if (!book) {
      book = new InstrumentBook();
      this.books.set(symbol, book);
    }
    return book;
  }

  /** The other members of the order's OCO group that are not done yet (the venue cancels them on a fill). */
  workingSiblings(order: Order): readonly Order[] {
    return this.oco.workingSiblings(order);
  }

  /** The catalog entry and canonical spelling of a symbol as a client wrote it; no spec when unknown. */
  private instrumentOf(written: string): { spec: InstrumentSpec | undefined; symbol: string } {
    let found = this.instruments.get(written);
    if (!found) {
      try {
        const parsed = parseSymbol(written);
        found = { spec: parsed.spec, symbol: canonicalSymbol(parsed) };
      } catch (error) {
        if (!(error instanceof UnknownInstrumentError)) throw error;
        found = { spec: undefined, symbol: written };
      }
      this.instruments.set(written, found);
    }
    return found;
  }

  private unfinishedOf(accountId: string): Order[] {
    let list = this.unfinishedByAccount.get(accountId);
    if (!list) {
      list = [];
      this.unfinishedByAccount.set(accountId, list);
    }
    return list;
  }

  /** The order with this id, if there is one. */
  find(orderId: string): Order | undefined {
    return this.byId.get(orderId);
  }

  /** Indexes the orders a restore put in the list (docs/architecture.md#indexes-by-id). */
  catchUpIndex(): void {
    this.byId.catchUp();
  }

  get(orderId: string): Order {
    const order = this.find(orderId);
    if (!order) throw new CommandRefusal(404, 'order_not_found', `order ${orderId} is unknown`);
    return order;
  }

  /**
   * An order a client may change. The risk engine's orders (flatten after a breach or lockout) are not the
   * client's: changing one would leave a position open (docs/order-lifecycle.md#risk-orders).
   */
  private clientOrder(orderId: string, verb: string): Order {
    const order = this.get(orderId);
    if (order.origin === 'risk')
      throw new CommandRefusal(
        409,
        'risk_order',
        `order ${orderId} was sent by the risk engine to flatten the account and cannot be ${verb}`,
      );
    return order;
  }

  status(order: Order): OrderStatus {
    return order.status;
  }

  /** POST /v1/orders: validates the body (400), checks the account (404), answers 202 with the order SUBMITTED. */
  place(body: unknown): Order {
    const request = parsePlaceOrder(body);
    this.accounts.get(request.accountId);
    return this.create(request, 'client');
  }

  /** A market order the risk engine sends to flatten a position; it passes the account gate. */
  placeRiskOrder(accountId: string, symbol: string, side: Side, quantity: number): Order {
    return this.create(
      { accountId, symbol, side, type: 'market', quantity, limitPrice: undefined, stopPrice: undefined, tif: 'gtc' },
      'risk',
    );
  }

  /** The orders of an account that are not done yet, in placement order. */
  workingOrdersOf(accountId: string): Order[] {
    const list = this.unfinishedByAccount.get(accountId);
    if (!list) return [];
    const working = list.filter((o) => o.phase !== 'done');
    // A finished order never works again: keep the account's list as short as its working orders.
    if (working.length < list.length) this.unfinishedByAccount.set(accountId, [...working]);
    return working;
  }

  private create(request: PlaceOrderRequest, origin: OrderOrigin): Order {
    const nowMs = this.ctx.clock.nowMs;
    const { spec, symbol } = this.instrumentOf(request.symbol);
    const initial = initialOrderState({ quantity: request.quantity, occurredAtMs: nowMs });
    // Every field written here, in one literal and one order: orders share one hidden class (no spreads).
    const order: Order = {
      id: this.ctx.ids.nextUuid(),
      seq: this.orderList.length + 1,
      clientOrderId: request.clientOrderId,
      origin,
      accountId: request.accountId,
      symbol,
      spec,
      side: request.side,
      type: request.type,
      tif: request.tif,
      limitPrice: request.limitPrice,
      stopPrice: request.stopPrice,
      limitTicks: undefined,
      stopTicks: undefined,
      createdAtMs: nowMs,
      phase: 'in_flight',
      triggered: false,
      arrivalSeq: 0,
      awaitingFirstPrint: true,
      filledNotionalTicks: 0,
      cancelInFlight: false,
      ocoGroupId: undefined,
      expirySeq: undefined,
      error: undefined,
      status: initial.status,
      quantity: initial.context.quantity,
      filledQuantity: initial.context.filledQuantity,
      history: initial.context.history,
    };
    this.orderList.push(order);
    this.unfinishedOf(request.accountId).push(order);
    this.publishState(order);
    this.ctx.clock.schedule(nowMs + this.ctx.fillModel.latencyMs, { kind: 'order_arrives', orderId: order.id });
    return order;
  }

  /** The order reaches the venue: refused (REJECTED) or resting. */
  arrive(order: Order): void {
    if (order.phase !== 'in_flight') return;
    const session = order.spec && this.ctx.calendar.sessionAtFamily(this.ctx.clock.nowMs, order.spec.family);
    const refusal = refusalAtArrival(order, session?.isOpen ?? false, this.ticks, this.gate);
    if (refusal || !session) {
      moveVenuePhase(order, 'done');
      order.error = refusal ?? { code: 'unknown_instrument', message: `instrument ${order.symbol} is not traded here` };
      this.send(order, { type: 'REJECT', reason: order.error.message, occurredAtMs: this.ctx.clock.nowMs });
      return;
    }
    moveVenuePhase(order, 'working');
    order.arrivalSeq = ++this.venueSeq;
    this.bookOf(order.symbol).add(order);
    // DAY orders live to their session's close; an IOC or FOK that never meets a print ends there too.
    if (order.tif !== 'gtc')
      order.expirySeq = this.ctx.clock.schedule(session.closeMs, { kind: 'order_expires', orderId: order.id });
  }

  /** DELETE on an order: 202 while it is working (the cancel travels), 200 when already CANCELLED, 409 when final. */
  cancel(orderId: string): { order: Order; status: 200 | 202 } {
    const order = this.clientOrder(orderId, 'cancelled');
    const status = this.status(order);
    if (status === 'CANCELLED') return { order, status: 200 };
    if (TERMINAL_STATUSES.has(status))
      throw new CommandRefusal(409, 'order_final', `order ${orderId} is ${status} and cannot be cancelled`);
    if (!order.cancelInFlight) {
      order.cancelInFlight = true;
      this.ctx.clock.schedule(this.ctx.clock.nowMs + this.ctx.fillModel.cancelLatencyMs, {
        kind: 'cancel_arrives',
        orderId,
      });
    }
    return { order, status: 202 };
  }

  /** The cancel reaches the venue; a fill that got there first has already made the order FILLED. */
  cancelArrives(order: Order): void {
    order.cancelInFlight = false;
    if (order.phase === 'done') return;
    this.finish(order, {
      type: 'CANCEL',
      reason: 'cancelled at the client’s request',
      occurredAtMs: this.ctx.clock.nowMs,
    });
  }

  /** PATCH on an order: 400 for malformed input, 409 when final, else 202 and the change travels. */
  modify(orderId: string, body: unknown): Order {
    const order = this.clientOrder(orderId, 'modified');
    const change = parseModifyOrder(body);
    const status = this.status(order);
    if (TERMINAL_STATUSES.has(status))
      throw new CommandRefusal(409, 'order_final', `order ${orderId} is ${status} and cannot be modified`);
    this.ctx.clock.schedule(this.ctx.clock.nowMs + this.ctx.fillModel.modifyLatencyMs, {
      kind: 'modify_arrives',
      orderId,
      change,
    });
    return order;
  }

  /** The modify reaches the venue: rejected with a reason (parameters unchanged) or applied. */
  modifyArrives(order: Order, change: ModifyOrderRequest): void {
    const occurredAtMs = this.ctx.clock.nowMs;
    if (order.phase === 'done') {
      this.ctx.emit('orders.modify_dropped', () => ({
        order_id: order.id,
        reason: `order is ${order.status}: no longer working`,
      }));
      return;
    }
    const last = this.books.get(order.symbol)?.lastPrintTicks;
    const rejection = modifyRejection(order, change, last, this.ticks, this.gate);
    if (typeof rejection === 'string') {
      this.send(order, { type: 'MODIFY_REJECTED', reason: `modify rejected: ${rejection}`, occurredAtMs });
      return;
    }
    const quantity = change.quantity ?? order.quantity;
    const apply = () => {
      if (change.limitPrice !== undefined)
        [order.limitPrice, order.limitTicks] = [change.limitPrice, rejection.limitTicks];
      if (change.stopPrice !== undefined) [order.stopPrice, order.stopTicks] = [change.stopPrice, rejection.stopTicks];
      order.arrivalSeq = ++this.venueSeq;
    };
    const losesPriority =
      change.limitPrice !== undefined || change.stopPrice !== undefined || quantity > order.quantity;
    if (order.phase === 'working' && losesPriority) this.bookOf(order.symbol).requeue(order, apply);
    else if (losesPriority) apply();
    this.send(order, {
      type: 'MODIFY_ACCEPTED',
      quantity,
      reason: `modified: ${describeChange(change)}`,
      occurredAtMs,
    });
  }

  /** DAY (and unsettled IOC/FOK) orders expire at the close of their trade date's session. */
  expire(order: Order): void {
    order.expirySeq = undefined;
    if (order.phase !== 'working') return;
    const reason =
      order.tif === 'day'
        ? 'day order expired at the session close'
        : `${order.tif} order met no print before the session close`;
    this.finish(order, { type: 'EXPIRE', reason, occurredAtMs: this.ctx.clock.nowMs });
  }

  /**
   * Ends a working or travelling order by cancel or expiry: out of the book, timers dropped, status recorded. The
   * venue's own cancels (an IOC/FOK remainder, an OCO sibling) come already done: it took them out of the book.
   */
  finish(order: Order, event: { type: 'CANCEL' | 'EXPIRE'; reason: string; occurredAtMs: number }): void {
    if (order.phase === 'working') this.bookOf(order.symbol).remove(order);
    if (order.phase !== 'done') moveVenuePhase(order, 'done');
    this.dropExpiry(order);
    this.send(order, event);
  }

  dropExpiry(order: Order): void {
    if (order.expirySeq !== undefined) this.ctx.clock.cancel(order.expirySeq);
    order.expirySeq = undefined;
  }

  /** POST /v1/orders/groups/oco/link: answers the new group's id (oco-commands.ts). */
  linkOco(body: unknown): string {
    return linkOco(this, body, () => this.ctx.ids.nextUuid());
  }

  /** POST /v1/orders/groups/oco/companion: answers the group's id (oco-commands.ts). */
  addOcoCompanion(body: unknown): string {
    return addOcoCompanion(this, body);
  }

  /**
   * Sends a lifecycle event and publishes the status record it appended, if any. The venue's phase and the
   * machine's status must agree: an event the machine would not take (a fill of a CANCELLED order, say) is a
   * bug in the venue, so it fails loudly here instead of being dropped.
   */
  send(order: Order, event: OrderLifecycleEvent): void {
    const { status, quantity, filledQuantity, history } = order;
    const next = nextOrderState({ status, context: { quantity, filledQuantity, history } }, event);
    if (!next) {
      throw new Error(
        `order ${order.id} is ${order.status} (venue phase ${order.phase}): its lifecycle does not take ${event.type}`,
      );
    }
    const appended = statusCount(next.context.history) > statusCount(history);
    order.status = next.status;
    order.quantity = next.context.quantity;
    order.filledQuantity = next.context.filledQuantity;
    order.history = next.context.history;
    if (appended) this.publishState(order);
  }

  private publishState(order: Order): void {
    this.ctx.emit('orders.state', () => {
      const last = lastStatusRecord(order.history); // built only when the event is written or watched
      const record: Record<string, unknown> = {
        order_id: order.id,
        account_id: order.accountId,
        status: last.status,
        reason: last.reason,
        occurred_at: last.occurredAtMs,
        filled_quantity: order.filledQuantity,
      };
      if (order.error && last.status === 'REJECTED') record.error = order.error;
      return record;
    });
  }

  json(order: Order): OrderJson {
    return orderJson(order);
  }
}

// `byId` is caught up after a restore (docs/architecture.md#indexes-by-id); the rest skipped is wiring.
declareSnapshot(OrderDesk, {
  kept: ['accounts', 'orderList', 'books', 'oco', 'unfinishedByAccount', 'venueSeq', 'tickSizes', 'instruments'],
  skipped: ['ctx', 'gate', 'byId', 'ticks'],
});
