// The kernel: single-threaded and driven by its SimClock. Commands come in (the operations the API exposes),
// events go out to listeners and the journal. Nothing here knows whether a command came from a scenario step,
// a back-test cell or an HTTP request (ARCHITECTURE.md). Order of work at one print (RULES §3): the venue
// matches resting orders first, then positions are marked.
import { GlobexCalendar } from '../calendar/globex-calendar.js';
import { SimClock } from '../clock.js';
import { IdGenerator } from '../ids.js';
import { canonicalSymbol, parseSymbol, type ProductFamily } from '../instruments.js';
import { Dec, formatCents, parseDecimal, priceToTicks } from '../money.js';
import { CommandRefusal, refusalOutcome, success, type Outcome } from '../outcome.js';
import { DEFAULT_FILL_MODEL, matchPrint, type FillModel, type VenueAction } from '../orders/fill-model.js';
import type { Order, Side } from '../orders/order-types.js';
import { fillToJson, positionToJson, PositionBook, tradeLotsToJson, tradeToJson, type FillResult } from '../positions/index.js';
import { AccountBook, accountBalanceJson, type AccountLedger, type OpenAccountInput } from './accounts.js';
import type { KernelContext } from './context.js';
import type { KernelEventType, KernelListener, KernelTimer } from './events.js';
import { Journal } from './journal.js';
import { OrderDesk, type OrderGate } from './order-desk.js';
import { orderStatesJson } from './order-json.js';

export interface KernelOptions {
  startMs: number;
  seed: number;
  calendar: GlobexCalendar;
  fillModel?: Partial<FillModel>;
  /** Account-level refusals at the venue; the risk engine plugs in here. */
  orderGate?: OrderGate;
  /** Keep the JSON-lines journal (default true); benchmarks may turn it off. */
  journal?: boolean;
}

export interface HistoricalFill {
  accountId: string;
  symbol: string;
  side: Side;
  quantity: number;
  price: string;
  /** When the execution happened, if earlier than now (a replayed history lags the clock); default now. */
  occurredAtMs?: number;
}

export class Kernel {
  readonly clock: SimClock<KernelTimer>;
  readonly ids: IdGenerator;
  readonly journal: Journal;
  readonly calendar: GlobexCalendar;
  readonly fillModel: FillModel;
  readonly accounts = new AccountBook();
  readonly positions: PositionBook;
  readonly desk: OrderDesk;
  private readonly listeners: KernelListener[] = [];
  private readonly families = new Map<string, ProductFamily>();
  private readonly ctx: KernelContext;

  constructor(options: KernelOptions) {
    this.clock = new SimClock(options.startMs);
    this.ids = new IdGenerator(options.seed);
    this.journal = new Journal(options.journal ?? true);
    this.calendar = options.calendar;
    this.fillModel = { ...DEFAULT_FILL_MODEL, ...options.fillModel };
    this.ctx = { clock: this.clock, ids: this.ids, calendar: this.calendar, fillModel: this.fillModel, emit: (type, build) => this.emit(type, build) };
    this.positions = new PositionBook({ newId: () => this.ids.nextUuid() });
    this.desk = new OrderDesk(this.ctx, this.accounts, options.orderGate ?? (() => undefined));
  }

  get nowMs(): number {
    return this.clock.nowMs;
  }

  subscribe(listener: KernelListener): () => void {
    this.listeners.push(listener);
    return () => this.listeners.splice(this.listeners.indexOf(listener), 1);
  }

  private emit(type: KernelEventType, build: () => Record<string, unknown>): void {
    if (!this.journal.enabled && this.listeners.length === 0) return;
    const timeMs = this.clock.nowMs;
    const data = build();
    this.journal.record(type, timeMs, data);
    for (const listener of this.listeners) listener({ type, timeMs, data });
  }

  private input(command: string, data: unknown): void {
    this.journal.record(`input.${command}`, this.clock.nowMs, data);
  }

  /** Runs a command, answering a CommandRefusal as its failure outcome. */
  private command<T>(name: string, data: unknown, run: () => Outcome<T>): Outcome<T> {
    this.input(name, data);
    try {
      return run();
    } catch (error) {
      if (error instanceof CommandRefusal) return refusalOutcome(error);
      throw error;
    }
  }

  // ---- time ----

  /** Moves the clock to `timeMs`, firing venue arrivals, cancels, modifies and expiries due by then. */
  advanceTo(timeMs: number): void {
    this.clock.advanceTo(timeMs, (timer) => this.onTimer(timer));
  }

  private onTimer(timer: KernelTimer): void {
    const order = this.desk.orders.get(timer.orderId)!;
    switch (timer.kind) {
      case 'order_arrives':
        return this.desk.arrive(order);
      case 'cancel_arrives':
        return this.desk.cancelArrives(order);
      case 'modify_arrives':
        return this.desk.modifyArrives(order, timer.change);
      case 'order_expires':
        return this.desk.expire(order);
    }
  }

  // ---- accounts ----

  openAccount(input: OpenAccountInput): Outcome<Record<string, unknown>> {
    const request = { alias: input.alias ?? null, starting_balance: formatCents(input.startingBalanceCents), commission_per_contract: formatCents(input.commissionPerContractCents) };
    return this.command('open_account', request, () => {
      const account = this.accounts.open(this.ids.nextUuid(), input);
      const body = this.accountJson(account);
      this.emit('accounts.created', () => body);
      return success(201, body);
    });
  }

  accountJson(account: AccountLedger): Record<string, unknown> {
    return {
      account_id: account.id,
      starting_balance: formatCents(account.startingBalanceCents),
      balance: formatCents(account.balanceCents),
      equity: formatCents(account.balanceCents + this.positions.unrealizedCents(account.id)),
    };
  }

  // ---- orders ----

  placeOrder(body: unknown): Outcome<Record<string, unknown>> {
    return this.command('place_order', body, () => success(202, this.desk.json(this.desk.place(body))));
  }

  modifyOrder(orderId: string, body: unknown): Outcome<Record<string, unknown>> {
    return this.command('modify_order', { order_id: orderId, body }, () => success(202, this.desk.json(this.desk.modify(orderId, body))));
  }

  cancelOrder(orderId: string): Outcome<Record<string, unknown>> {
    return this.command('cancel_order', { order_id: orderId }, () => {
      const { order, status } = this.desk.cancel(orderId);
      return success(status, this.desk.json(order));
    });
  }

  linkOco(orderIds: readonly string[]): Outcome<Record<string, unknown>> {
    return this.command('link_oco', { order_ids: orderIds }, () => {
      const groupId = this.desk.linkOco(orderIds);
      return success(201, { group_id: groupId, order_ids: this.desk.oco.orderIds(groupId) });
    });
  }

  addOcoCompanion(groupId: string, orderId: string): Outcome<Record<string, unknown>> {
    return this.command('add_oco_companion', { group_id: groupId, order_id: orderId }, () => {
      this.desk.addOcoCompanion(groupId, orderId);
      return success(200, { group_id: groupId, order_ids: this.desk.oco.orderIds(groupId) });
    });
  }

  getOrder(orderId: string): Outcome<Record<string, unknown>> {
    try {
      return success(200, this.desk.json(this.desk.get(orderId)));
    } catch (error) {
      if (error instanceof CommandRefusal) return refusalOutcome(error);
      throw error;
    }
  }

  getOrderStates(orderId: string): Outcome<Array<Record<string, unknown>>> {
    const order = this.desk.orders.get(orderId);
    return order ? success(200, orderStatesJson(order)) : refusalOutcome(new CommandRefusal(404, 'order_not_found', `order ${orderId} is unknown`));
  }

  // ---- market ----

  /** A trade print: the venue matches first, then positions are marked at it (RULES §3). */
  print(symbol: string, priceTicks: number, size: number, timeMs: number = this.clock.nowMs): void {
    this.advanceTo(timeMs);
    const book = this.desk.bookOf(symbol);
    if (book.workingCount > 0) {
      const actions = matchPrint(book, priceTicks, size, this.fillModel, (order) => this.desk.oco.workingSiblings(order));
      if (actions.length > 0) this.applyVenueActions(actions);
    } else {
      book.lastPrintTicks = priceTicks;
    }
    this.positions.markPrice(symbol, priceTicks);
  }

  /** A print written by a user (scenario `tick` step): journaled, priced from its decimal string. */
  printInput(symbol: string, price: string, size: number | undefined): void {
    this.input('tick', { instrument: symbol, price, size: size ?? null });
    const parsed = parseSymbol(symbol);
    const ticks = priceToTicks(parseDecimal(price, 'price', { maxPlaces: 9 }), new Dec(parsed.spec.tickSize));
    this.print(canonicalSymbol(parsed), ticks, size ?? Infinity);
  }

  private applyVenueActions(actions: readonly VenueAction[]): void {
    const occurredAtMs = this.clock.nowMs;
    for (const action of actions) {
      if (action.kind === 'cancel') {
        this.desk.finish(action.order, { type: 'CANCEL', reason: action.reason, occurredAtMs });
        continue;
      }
      const { order, quantity, priceTicks } = action;
      order.filledNotionalTicks += priceTicks * quantity;
      this.desk.send(order, { type: 'FILL', quantity, occurredAtMs });
      if (order.phase === 'done') this.desk.dropExpiry(order);
      this.execute(order.accountId, order.symbol, order.side, quantity, priceTicks, order.id);
    }
  }

  // ---- fills ----

  /** A historical execution replayed without the venue (RULES §9). */
  recordFill(fill: HistoricalFill): Outcome<Record<string, unknown>> {
    const request = { account_id: fill.accountId, instrument_id: fill.symbol, side: fill.side, quantity: fill.quantity, price: fill.price, occurred_at: fill.occurredAtMs ?? null };
    return this.command('record_fill', request, () => {
      this.accounts.get(fill.accountId);
      const parsed = parseSymbol(fill.symbol);
      const ticks = priceToTicks(parseDecimal(fill.price, 'price', { maxPlaces: 9 }), new Dec(parsed.spec.tickSize));
      const result = this.execute(fill.accountId, canonicalSymbol(parsed), fill.side, fill.quantity, ticks, null, fill.occurredAtMs);
      return success(201, fillToJson(result.fill) as unknown as Record<string, unknown>);
    });
  }

  /** Books one execution: position, lots, cash, and the events that go with them. */
  private execute(
    accountId: string,
    symbol: string,
    side: Side,
    quantity: number,
    priceTicks: number,
    orderId: string | null,
    occurredAtMs = this.clock.nowMs,
  ): FillResult {
    const account = this.accounts.get(accountId);
    const commissionCents = account.commissionPerContractCents * quantity;
    const result = this.positions.applyFill({
      executionId: this.ids.nextUuid(),
      orderId,
      accountId,
      symbol,
      side,
      quantity,
      priceTicks,
      occurredAtMs,
      tradeDate: this.calendar.tradeDateOfFamily(occurredAtMs, this.familyOf(symbol)),
      commissionCents,
    });
    this.accounts.applyFill(account, result.realizedCents, commissionCents);
    this.emit('fills.created', () => ({ ...fillToJson(result.fill) }));
    if (result.openedPosition) this.emit('positions.created', () => ({ ...positionToJson(result.position) }));
    for (const tradeId of result.tradesClosed) this.emit('trades.closed', () => ({ ...tradeToJson(this.positions.trade(tradeId)!) }));
    this.emit('balance.updated', () => accountBalanceJson(account));
    return result;
  }

  private familyOf(symbol: string): ProductFamily {
    let family = this.families.get(symbol);
    if (!family) {
      family = parseSymbol(symbol).spec.family;
      this.families.set(symbol, family);
    }
    return family;
  }

  // ---- reads ----

  ordersOf(accountId: string): Order[] {
    return [...this.desk.orders.values()].filter((o) => o.accountId === accountId);
  }

  tradeLots(tradeId: string): Outcome<Record<string, unknown>> {
    const trade = this.positions.trade(tradeId);
    if (!trade) return refusalOutcome(new CommandRefusal(404, 'trade_not_found', `trade ${tradeId} is unknown`));
    return success(200, tradeLotsToJson(trade) as unknown as Record<string, unknown>);
  }
}
