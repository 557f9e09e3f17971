// The kernel: single-threaded and driven by its SimClock. Commands come in (the operations the API exposes),
// events go out to listeners and the journal. Nothing here knows whether a command came from a scenario step,
// a back-test cell or an HTTP request (docs/architecture.md#one-kernel-many-drivers). Order of work at one print:
// the venue matches resting orders first, then positions are marked (docs/risk-rules.md#order-of-work-at-one-print).
import { type GlobexCalendar } from '../calendar/globex-calendar.js';
import { SimClock } from '../clock.js';
import { IdGenerator } from '../ids.js';
import { canonicalSymbol, parseSymbol, type ProductFamily } from '../instruments.js';
import { Dec, formatCents, parseDecimal, priceToTicks } from '../money.js';
import { CommandRefusal, refusalOutcome, success, type Outcome } from '../outcome.js';
import { DEFAULT_FILL_MODEL, matchPrint, type FillModel, type VenueAction } from '../orders/fill-model.js';
import type { Side } from '../orders/order-types.js';
import {
  fillToJson,
  positionToJson,
  PositionBook,
  tradeLotsToJson,
  tradeToJson,
  type FillResult,
} from '../positions/index.js';
import { mondayOf } from '../calendar/dates.js';
import type { PlanTemplate } from '../accounts/plans.js';
import { accountRecordJson, provisionResultJson, Provisioning, type AccountQuery } from '../accounts/provisioning.js';
import { AccountBook, type OpenAccountInput, type RiskAccount } from './accounts.js';
import type { KernelContext } from './context.js';
import type { KernelEventType, KernelListener, KernelTimer } from './events.js';
import { FirmControl } from './firm-control.js';
import { Journal } from './journal.js';
import { OrderDesk } from './order-desk.js';
import { orderStatesJson } from './order-json.js';
import { RiskDesk } from './risk-desk.js';
import { planJson, riskStateJson } from './risk-json.js';

export interface KernelOptions {
  startMs: number;
  seed: number;
  calendar: GlobexCalendar;
  fillModel?: Partial<FillModel>;
  /** Keep the JSON-lines journal (default true); benchmarks may turn it off. */
  journal?: boolean;
  /** The risk engine's loading window after create and unlock (docs/risk-rules.md#the-loading-window), default 250 ms.
   * */
  riskLoadDelayMs?: number;
  /** The product group whose sessions define the session roll of every account, default equity_index. */
  rollFamily?: ProductFamily;
}

/** Firm-control operations on one account, by name (each a FirmControl method). */
export type AccountOperation =
  | 'setDailyLossTrigger'
  | 'reanchor'
  | 'lockout'
  | 'unlock'
  | 'flatten'
  | 'cancelAll'
  | 'setMaxLossLimit'
  | 'adjust'
  | 'setUserRiskHalt';

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
  readonly risk: RiskDesk;
  readonly firm: FirmControl;
  readonly rollFamily: ProductFamily;
  readonly provisioning = new Provisioning();
  private lastRollTradeDate: string;
  private readonly listeners: KernelListener[] = [];
  private readonly families = new Map<string, ProductFamily>();
  private readonly ctx: KernelContext;

  constructor(options: KernelOptions) {
    this.clock = new SimClock(options.startMs);
    this.ids = new IdGenerator(options.seed);
    this.journal = new Journal(options.journal ?? true);
    this.calendar = options.calendar;
    this.fillModel = { ...DEFAULT_FILL_MODEL, ...options.fillModel };
    this.ctx = {
      clock: this.clock,
      ids: this.ids,
      calendar: this.calendar,
      fillModel: this.fillModel,
      emit: (type, build) => this.emit(type, build),
    };
    this.positions = new PositionBook({ newId: () => this.ids.nextUuid() });
    this.desk = new OrderDesk(this.ctx, this.accounts, (order, quantity) => this.risk.refusal(order, quantity));
    this.risk = new RiskDesk(this.ctx, this.accounts, this.positions, this.desk, (symbol) => this.familyOf(symbol));
    this.firm = new FirmControl(this.ctx, this.accounts, this.risk, options.riskLoadDelayMs ?? 250);
    this.rollFamily = options.rollFamily ?? 'equity_index';
    this.input('kernel_started', {
      start_ms: options.startMs,
      seed: options.seed,
      fill_model: this.fillModel,
      risk_load_delay_ms: options.riskLoadDelayMs ?? 250,
      roll_family: this.rollFamily,
    });
    this.lastRollTradeDate = this.calendar.tradeDateOfFamily(options.startMs, this.rollFamily);
    this.clock.schedule(this.calendar.nextSessionRollFamily(options.startMs, this.rollFamily), {
      kind: 'session_roll',
    });
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

  /**
   * Runs a command, answering a CommandRefusal as its failure outcome. Work the command made due now (a
   * zero-latency arrival, a trigger breach) happens before the next input, so a journal replays exactly.
   */
  private command<T>(name: string, data: unknown, run: () => Outcome<T>): Outcome<T> {
    this.input(name, data);
    try {
      return run();
    } catch (error) {
      if (error instanceof CommandRefusal) return refusalOutcome(error);
      throw error;
    } finally {
      this.advanceTo(this.clock.nowMs);
    }
  }

  // ---- time ----

  /** A driver moves time (scenario `at` and `advance`): journaled, then the clock advances. */
  advance(timeMs: number): void {
    this.input('advance', { to: timeMs });
    this.advanceTo(timeMs);
  }

  /** Moves the clock to `timeMs`, firing venue arrivals, cancels, modifies and expiries due by then. */
  advanceTo(timeMs: number): void {
    this.clock.advanceTo(timeMs, (timer) => this.onTimer(timer));
  }

  private onTimer(timer: KernelTimer): void {
    if (timer.kind === 'session_roll') return this.rollSessions();
    if (timer.kind === 'risk_loaded') {
      const account = this.accounts.get(timer.accountId);
      this.risk.send(account, {
        type: 'RISK_LOADED',
        loadStartedAtMs: timer.loadStartedAtMs,
        occurredAtMs: this.clock.nowMs,
      });
      return;
    }
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

  /** The session roll (docs/risk-rules.md#session-rolls): the first instant of a new session; the weekly one starts a
   * week. */
  private rollSessions(): void {
    const tradeDate = this.calendar.tradeDateOfFamily(this.clock.nowMs, this.rollFamily);
    const weekly = mondayOf(tradeDate) !== mondayOf(this.lastRollTradeDate);
    this.lastRollTradeDate = tradeDate;
    this.emit('session.rolled', () => ({ trade_date: tradeDate, weekly }));
    this.risk.roll(weekly);
    this.clock.schedule(this.calendar.nextSessionRollFamily(this.clock.nowMs, this.rollFamily), {
      kind: 'session_roll',
    });
  }

  // ---- accounts ----

  /** Opens an account on a plan template (already overlaid); its risk engine loads for riskLoadDelayMs. */
  openAccount(input: OpenAccountInput): Outcome<Record<string, unknown>> {
    const request = {
      alias: input.alias ?? null,
      firm_id: input.firmId ?? null,
      user_id: input.userId ?? null,
      plan: planJson(input.plan),
      price_paid: formatCents(input.pricePaidCents ?? 0),
    };
    return this.command('open_account', request, () => success(201, this.open(this.ids.nextUuid(), input)));
  }

  private open(id: string, input: OpenAccountInput): Record<string, unknown> {
    const account = this.accounts.open(id, input, this.clock.nowMs);
    this.firm.scheduleRiskLoad(account);
    const body = this.accountJson(account);
    this.emit('accounts.created', () => body);
    return body;
  }

  /** Registers a firm and its plan templates by plan_reference (the sandbox seed; back-test cells). */
  registerFirm(firmId: string, slug: string, plans: ReadonlyMap<string, PlanTemplate>): void {
    this.input('register_firm', {
      firm_id: firmId,
      slug,
      plans: Object.fromEntries([...plans].map(([ref, plan]) => [ref, planJson(plan)])),
    });
    this.provisioning.registerFirm(firmId, slug, plans);
  }

  /** POST /v1/firm-control/accounts: 201 with new accounts, 200 with the originals for a repeated idempotency_key. */
  provisionAccounts(firmId: string, body: unknown): Outcome<Record<string, unknown>> {
    return this.command('provision_accounts', { firm_id: firmId, body }, () => {
      const result = this.provisioning.provision(firmId, body, () => this.ids.nextUuid(), this.clock.nowMs);
      if (result.status === 201) {
        for (const record of result.accounts) {
          this.open(record.accountId, {
            plan: record.plan,
            firmId,
            userId: record.userId,
            pricePaidCents: record.pricePaidCents,
          });
        }
      }
      return success(result.status, provisionResultJson(result));
    });
  }

  /** GET /v1/firm-control/accounts: by user, by idempotency_key, or every account of the firm. */
  listAccounts(firmId: string | undefined, query: AccountQuery = {}): Outcome<Record<string, unknown>> {
    return this.read(() => success(200, { items: this.provisioning.lookup(firmId, query).map(accountRecordJson) }));
  }

  /** The live risk state item of an account, read directly (scenarios' expect; no loading window). */
  accountJson(account: RiskAccount): Record<string, unknown> {
    return riskStateJson(account, this.risk.equityCents(account));
  }

  /** GET risk-state: 503 while the risk engine loads the account, 404 when unknown. */
  riskState(accountId: string): Outcome<Record<string, unknown>> {
    return this.read(() => success(200, this.firm.riskState(accountId, false)));
  }

  /** A firm-control operation on one account, journaled like every command. */
  control(operation: AccountOperation, accountId: string, body?: unknown): Outcome<Record<string, unknown>> {
    return this.command(operation, { account_id: accountId, body: body ?? null }, () => {
      const firm = this.firm;
      const run: Record<AccountOperation, () => Record<string, unknown>> = {
        setDailyLossTrigger: () => firm.setDailyLossTrigger(accountId, body),
        reanchor: () => firm.reanchor(accountId, body),
        lockout: () => firm.lockout(accountId, body),
        unlock: () => firm.unlock(accountId),
        flatten: () => firm.flatten(accountId),
        cancelAll: () => firm.cancelAll(accountId),
        setMaxLossLimit: () => firm.setMaxLossLimit(accountId, body),
        adjust: () => firm.adjust(accountId, body),
        setUserRiskHalt: () => firm.setUserRiskHalt(accountId, body),
      };
      return success(200, run[operation]());
    });
  }

  /** PUT /v1/firm-control/offerings: enables or disables a product family for the firm's new orders. */
  setOffering(firmId: string, body: unknown): Outcome<Record<string, unknown>> {
    return this.command('set_offering', { firm_id: firmId, body }, () =>
      success(200, this.firm.setOffering(firmId, body)),
    );
  }

  /** POST replace: flattens and closes the account and opens a new one from the same template
   * (docs/risk-rules.md#replace). */
  replaceAccount(accountId: string): Outcome<Record<string, unknown>> {
    return this.command('replace_account', { account_id: accountId }, () => {
      const original = this.accounts.get(accountId);
      if (original.status === 'closed')
        throw new CommandRefusal(409, 'account_closed', `account ${accountId} is already closed`);
      const minted = this.provisioning.hasAccount(accountId)
        ? this.provisioning.replace(undefined, accountId, () => this.ids.nextUuid(), this.clock.nowMs).replacement
        : undefined;
      this.risk.cancelAndFlatten(original, 'account_replaced');
      this.risk.send(original, { type: 'REPLACE', reason: 'account replaced', occurredAtMs: this.clock.nowMs });
      const input: OpenAccountInput = {
        plan: minted?.plan ?? original.templatePlan,
        firmId: original.firmId,
        ...(original.userId ? { userId: original.userId } : {}),
        ...(original.alias ? { alias: original.alias } : {}),
      };
      const replacement = this.open(minted?.accountId ?? this.ids.nextUuid(), input);
      this.emit('accounts.replaced', () => ({
        account_id: original.id,
        replaced_by_account_id: replacement.account_id,
      }));
      return success(201, { account_id: replacement.account_id, replaced_account_id: original.id, item: replacement });
    });
  }

  private read<T>(run: () => Outcome<T>): Outcome<T> {
    try {
      return run();
    } catch (error) {
      if (error instanceof CommandRefusal) return refusalOutcome(error);
      throw error;
    }
  }

  // ---- orders ----

  placeOrder(body: unknown): Outcome<Record<string, unknown>> {
    return this.command('place_order', body, () => success(202, this.desk.json(this.desk.place(body))));
  }

  modifyOrder(orderId: string, body: unknown): Outcome<Record<string, unknown>> {
    return this.command('modify_order', { order_id: orderId, body }, () =>
      success(202, this.desk.json(this.desk.modify(orderId, body))),
    );
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
    return this.read(() => success(200, this.desk.json(this.desk.get(orderId))));
  }

  getOrderStates(orderId: string): Outcome<Array<Record<string, unknown>>> {
    const order = this.desk.orders.get(orderId);
    return order
      ? success(200, orderStatesJson(order))
      : refusalOutcome(new CommandRefusal(404, 'order_not_found', `order ${orderId} is unknown`));
  }

  // ---- market ----

  /**
   * A trade print at `timeMs` (canonical symbol, integer ticks; size Infinity for no limit): the venue matches
   * first, then accounts holding the instrument are marked (docs/risk-rules.md#order-of-work-at-one-print). Journaled
   * as an input.
   */
  print(symbol: string, priceTicks: number, size: number, timeMs: number = this.clock.nowMs): void {
    this.advanceTo(timeMs);
    if (this.journal.enabled)
      this.input('print', { instrument: symbol, price_ticks: priceTicks, size: size === Infinity ? null : size });
    this.processPrint(symbol, priceTicks, size);
  }

  private processPrint(symbol: string, priceTicks: number, size: number): void {
    const book = this.desk.bookOf(symbol);
    let filled: Set<RiskAccount> | undefined;
    if (book.workingCount > 0) {
      const actions = matchPrint(book, priceTicks, size, this.fillModel, this.desk);
      if (actions.length > 0) filled = this.applyVenueActions(actions);
    } else {
      book.lastPrintTicks = priceTicks;
    }
    this.positions.markPrice(symbol, priceTicks);
    this.risk.markCrossings(symbol, priceTicks);
    // Accounts a fill took flat are no longer holders but still need their check (commissions).
    if (filled) for (const account of filled) this.afterFills(account);
  }

  private afterFills(account: RiskAccount): void {
    this.risk.mark(account);
    this.risk.ensureFlattening(account);
  }

  /** A print written by a user (scenario `tick` step): journaled, priced from its decimal string. */
  printInput(symbol: string, price: string, size: number | undefined): void {
    this.input('tick', { instrument: symbol, price, size: size ?? null });
    const parsed = parseSymbol(symbol);
    const ticks = priceToTicks(parseDecimal(price, 'price', { maxPlaces: 9 }), new Dec(parsed.spec.tickSize));
    this.processPrint(canonicalSymbol(parsed), ticks, size ?? Infinity);
    this.advanceTo(this.clock.nowMs);
  }

  /** Applies a print's fills and cancels, all of them before any account is marked; returns who filled. */
  private applyVenueActions(actions: readonly VenueAction[]): Set<RiskAccount> {
    const occurredAtMs = this.clock.nowMs;
    const filled = new Set<RiskAccount>();
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
      filled.add(this.accounts.get(order.accountId));
    }
    return filled;
  }

  // ---- fills ----

  /** A historical execution replayed without the venue (docs/risk-rules.md#historical-fills). */
  recordFill(fill: HistoricalFill): Outcome<Record<string, unknown>> {
    const request = {
      account_id: fill.accountId,
      instrument_id: fill.symbol,
      side: fill.side,
      quantity: fill.quantity,
      price: fill.price,
      occurred_at: fill.occurredAtMs ?? null,
    };
    return this.command('record_fill', request, (): Outcome<Record<string, unknown>> => {
      if (fill.occurredAtMs !== undefined && fill.occurredAtMs > this.clock.nowMs) {
        // History cannot run ahead of the clock (docs/risk-rules.md#historical-fills).
        const message = `occurred_at ${fill.occurredAtMs} is after the simulated clock ${this.clock.nowMs}: a historical fill cannot come from the future`;
        throw new CommandRefusal(400, 'fill_in_future', message, { field: 'occurred_at' });
      }
      const account = this.accounts.get(fill.accountId);
      if (account.status !== 'active' || account.locks.length > 0) {
        account.droppedFills++;
        const dropped = {
          ...request,
          dropped: true,
          reason:
            account.status !== 'active' ? `account is ${account.status}` : `account is locked (${account.locks[0]})`,
        };
        this.emit('fills.dropped', () => dropped);
        return success(200, dropped);
      }
      const parsed = parseSymbol(fill.symbol);
      const ticks = priceToTicks(parseDecimal(fill.price, 'price', { maxPlaces: 9 }), new Dec(parsed.spec.tickSize));
      const result = this.execute(
        fill.accountId,
        canonicalSymbol(parsed),
        fill.side,
        fill.quantity,
        ticks,
        null,
        fill.occurredAtMs,
      );
      this.afterFills(account);
      return success(201, { ...fillToJson(result.fill) });
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
    const commissionCents = account.plan.commissionPerContractCents * quantity;
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
    this.emit('fills.created', () => ({ ...fillToJson(result.fill) }));
    if (result.openedPosition) this.emit('positions.created', () => ({ ...positionToJson(result.position) }));
    for (const tradeId of result.tradesClosed)
      this.emit('trades.closed', () => ({ ...tradeToJson(this.positions.trade(tradeId)!) }));
    this.risk.bookFill(account, result.realizedCents, commissionCents, result.fill.tradeDate);
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

  tradeLots(tradeId: string): Outcome<Record<string, unknown>> {
    const trade = this.positions.trade(tradeId);
    if (!trade) return refusalOutcome(new CommandRefusal(404, 'trade_not_found', `trade ${tradeId} is unknown`));
    return success(200, tradeLotsToJson(trade) as unknown as Record<string, unknown>);
  }
}
