// The kernel's read side (docs/architecture.md#one-kernel-many-drivers): what drivers may read, in the API's shapes
// (docs/api.md#shapes), lists with cursor paging (paging.ts). Reads change nothing and are not journaled. Each
// read takes a scope: a firm key sees its firm, a trader's session its own accounts, a platform admin everything;
// a record outside the scope is never listed, and a single read of one answers 404 as if it did not exist.
import type { Provisioning } from '../../accounts/provisioning.js';
import { chicagoIso } from '../../calendar/dates.js';
import type { GlobexCalendar } from '../../calendar/globex-calendar.js';
import type { SimClock } from '../../clock.js';
import type { ProductFamily } from '../../instruments.js';
import { formatCents } from '../../money.js';
import { CommandRefusal, type Outcome } from '../../outcome.js';
import type { Order, OrderOrigin } from '../../orders/order-types.js';
import { fillToJson, positionToJson, tradeLotsToJson, tradeToJson, type PositionBook } from '../../positions/index.js';
import type { AccountRecordJson, AdjustmentJson, BalanceJson, RiskStateJson } from '../../shapes/account.js';
import type { ClockJson } from '../../shapes/clock.js';
import type { FillJson, TradeJson, TradeLotsJson } from '../../shapes/fill.js';
import type { OfferingsJson } from '../../shapes/firm-control.js';
import type { OrderJson, StatusRecordJson } from '../../shapes/order.js';
import type { DailyPositionJson, PositionJson } from '../../shapes/position.js';
import type { StatsJson } from '../../shapes/stats.js';
import type { AccountBook, RiskAccount } from '../accounts.js';
import { DailyHistory } from './daily-history.js';
import type { KernelTimer } from '../events.js';
import { adjustmentJson, type FirmControl } from '../write/firm-control.js';
import type { Journal } from '../persistence/journal.js';
import { orderJson, orderStatesJson } from './order-json.js';
import type { OrderDesk } from '../write/order-desk.js';
import { pageOf, type Page, type PageRequest } from './paging.js';
import type { RiskDesk } from '../risk/risk-desk.js';
import { balanceJson, riskStateJson } from './risk-json.js';
import { statsOf } from './stats.js';
import { accountHistoryOf, riskNumbersOf, type AccountHistory, type RiskNumbers } from './account-figures.js';
import { attempt, inScope, inTime, type ListFilter, type ReadScope, type UserIdentity } from './read-scope.js';

export type { AccountHistory, RiskNumbers } from './account-figures.js';
export type { ListFilter, ReadScope, UserIdentity } from './read-scope.js';
import { declareSnapshot } from '../../snapshot/snapshot-fields.js';

export interface KernelParts {
  clock: SimClock<KernelTimer>;
  calendar: GlobexCalendar;
  rollFamily: ProductFamily;
  journal: Journal;
  accounts: AccountBook;
  positions: PositionBook;
  desk: OrderDesk;
  risk: RiskDesk;
  firm: FirmControl;
  provisioning: Provisioning;
}

export class KernelReads {
  private readonly daily: DailyHistory;

  constructor(private readonly k: KernelParts) {
    this.daily = new DailyHistory(k.journal, k.calendar);
  }

  clock(): ClockJson {
    const nowMs = this.k.clock.nowMs;
    const session = this.k.calendar.sessionAtFamily(nowMs, this.k.rollFamily);
    return { now_ms: nowMs, now: chicagoIso(nowMs), trade_date: session.tradeDate, is_open: session.isOpen };
  }

  // ---- firms, users, ownership (the gateway's questions) ----

  firm(slugOrId: string): { firm_id: string; slug: string; name: string } | undefined {
    const firm = this.k.provisioning.firmBySlugOrId(slugOrId);
    return firm && { firm_id: firm.firmId, slug: firm.slug, name: firm.name };
  }

  usersByEmail(email: string): UserIdentity[] {
    return this.k.provisioning.usersByEmail(email.toLowerCase()).map((u) => this.identity(u.userId)!);
  }

  user(userId: string): UserIdentity | undefined {
    return this.identity(userId);
  }

  /** How a page names a trader: email, and the first name when provisioning gave one (the dashboard's titles). */
  traderName(userId: string): { email: string; first_name?: string } | undefined {
    const user = this.k.provisioning.findUser(userId);
    return user && { email: user.email, ...(user.firstName === undefined ? {} : { first_name: user.firstName }) };
  }

  private identity(userId: string): UserIdentity | undefined {
    const user = this.k.provisioning.findUser(userId);
    if (!user) return undefined;
    const firm = this.k.provisioning.firmBySlugOrId(user.firmId)!;
    return { user_id: user.userId, firm_id: user.firmId, firm_slug: firm.slug, email: user.email, kind: user.kind };
  }

  /** Whether the account exists and the scope may see it. */
  visibleAccount(scope: ReadScope, accountId: string): boolean {
    const account = this.k.accounts.find(accountId);
    return account !== undefined && inScope(scope, account);
  }

  /** The account of an OCO group, when the scope may see it (the companion route's 404). */
  visibleOcoGroup(scope: ReadScope, groupId: string): boolean {
    const accountId = this.k.desk.oco.accountOf(groupId);
    return accountId !== undefined && this.visibleAccount(scope, accountId);
  }

  // ---- accounts ----

  /** GET /v1/firm-control/accounts: provisioned accounts, by user and idempotency_key. */
  accounts(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page<AccountRecordJson>> {
    return attempt(() =>
      pageOf(
        { name: 'accounts', records: this.k.provisioning.everyAccount(), seqOf: (r) => r.seq },
        page,
        (r) =>
          this.visibleAccount(scope, r.accountId) &&
          (filter.account_id === undefined || r.accountId === filter.account_id) &&
          (filter.user_id === undefined || r.userId === filter.user_id) &&
          (filter.idempotency_key === undefined || r.idempotencyKey === filter.idempotency_key) &&
          (filter.status === undefined || this.k.accounts.get(r.accountId).status === filter.status) &&
          inTime(filter, r.createdAtMs),
        (r) => ({
          account_id: r.accountId,
          user_id: r.userId,
          plan_reference: r.planReference,
          status: this.k.accounts.get(r.accountId).status,
          ...(r.idempotencyKey === undefined ? {} : { idempotency_key: r.idempotencyKey }),
          price_paid: formatCents(r.pricePaidCents),
          created_at: r.createdAtMs,
          ...(r.replacesAccountId === undefined ? {} : { replaces_account_id: r.replacesAccountId }),
          ...(r.replacedByAccountId === undefined ? {} : { replaced_by_account_id: r.replacedByAccountId }),
        }),
      ),
    );
  }

  /** GET risk-state: 503 `risk_loading` inside the loading window (docs/risk-rules.md#the-loading-window). */
  riskState(scope: ReadScope, accountId: string): Outcome<{ item: RiskStateJson }> {
    return attempt(() => {
      const account = this.account(scope, accountId);
      if (!account.riskReady)
        throw new CommandRefusal(
          503,
          'risk_loading',
          `the risk engine is still loading account ${accountId}; retry shortly`,
        );
      return { item: this.item(account) };
    });
  }

  /** The live risk state item read directly, without the loading window (scenario `expect`, reports). */
  accountState(accountId: string): RiskStateJson | undefined {
    const account = this.k.accounts.find(accountId);
    return account && this.item(account);
  }

  /** Every account's id in opening order: cheaper than accountStates when the ids are all a caller needs. */
  accountIds(): string[] {
    return this.k.accounts.all().map((a) => a.id);
  }

  /** Every account's risk state item in opening order (state.json, reports). */
  accountStates(): RiskStateJson[] {
    return this.k.accounts.all().map((a) => this.item(a));
  }

  balance(scope: ReadScope, accountId: string): Outcome<BalanceJson> {
    return attempt(() => {
      const account = this.account(scope, accountId);
      return balanceJson(account, this.k.risk.equityCents(account));
    });
  }

  balances(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page<BalanceJson>> {
    return attempt(() =>
      pageOf(
        { name: 'balances', records: this.k.accounts.all(), seqOf: (a) => a.seq },
        page,
        (a) => inScope(scope, a) && (filter.account_id === undefined || a.id === filter.account_id),
        (a) => balanceJson(a, this.k.risk.equityCents(a)),
      ),
    );
  }

  adjustments(scope: ReadScope, accountId: string, page: PageRequest): Outcome<Page<AdjustmentJson>> {
    return attempt(() => {
      const account = this.account(scope, accountId);
      const records = account.adjustments.map((r, i) => ({ r, seq: i + 1 }));
      return pageOf(
        { name: 'adjustments', records, seqOf: (x) => x.seq },
        page,
        () => true,
        (x) => adjustmentJson(account.id, x.r),
      );
    });
  }

  stats(scope: ReadScope, accountId: string): Outcome<StatsJson> {
    return attempt(() => {
      const account = this.account(scope, accountId);
      return statsOf(account, this.k.positions.fills(account.id), this.k.positions.trades(account.id));
    });
  }

  offerings(firmId: string): OfferingsJson {
    return this.k.firm.offerings(firmId);
  }

  // ---- orders ----

  order(scope: ReadScope, orderId: string): Outcome<OrderJson> {
    return attempt(() => orderJson(this.orderIn(scope, orderId)));
  }

  orderStates(scope: ReadScope, orderId: string): Outcome<{ items: StatusRecordJson[] }> {
    return attempt(() => ({ items: orderStatesJson(this.orderIn(scope, orderId)) }));
  }

  orders(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page<OrderJson>> {
    return attempt(() =>
      pageOf(
        { name: 'orders', records: this.k.desk.orderList, seqOf: (o) => o.seq },
        page,
        (o) =>
          this.visibleAccount(scope, o.accountId) &&
          (filter.account_id === undefined || o.accountId === filter.account_id) &&
          (filter.instrument_id === undefined || o.symbol === filter.instrument_id) &&
          (filter.status === undefined || o.status === filter.status) &&
          inTime(filter, o.createdAtMs),
        orderJson,
      ),
    );
  }

  /** Ids of the account's orders still working or on their way, in placement order (back-test traders). */
  workingOrderIds(accountId: string, origin?: OrderOrigin): string[] {
    return this.k.desk
      .workingOrdersOf(accountId)
      .filter((o) => origin === undefined || o.origin === origin)
      .map((o) => o.id);
  }

  // ---- fills, trades, positions ----

  fills(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page<FillJson>> {
    return attempt(() =>
      pageOf(
        { name: 'fills', records: this.k.positions.everyFill(), seqOf: (f) => f.seq },
        page,
        (f) =>
          this.visibleAccount(scope, f.accountId) &&
          (filter.account_id === undefined || f.accountId === filter.account_id) &&
          (filter.instrument_id === undefined || f.symbol === filter.instrument_id) &&
          inTime(filter, f.occurredAtMs),
        fillToJson,
      ),
    );
  }

  trades(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page<TradeJson>> {
    return attempt(() =>
      pageOf(
        { name: 'trades', records: this.k.positions.everyTrade(), seqOf: (t) => t.seq },
        page,
        (t) =>
          this.visibleAccount(scope, t.accountId) &&
          (filter.account_id === undefined || t.accountId === filter.account_id) &&
          (filter.instrument_id === undefined || t.symbol === filter.instrument_id) &&
          (filter.status === undefined || (t.closedAtMs === null ? 'open' : 'closed') === filter.status) &&
          inTime(filter, t.openedAtMs),
        tradeToJson,
      ),
    );
  }

  tradeLots(scope: ReadScope, tradeId: string): Outcome<TradeLotsJson> {
    return attempt(() => {
      const trade = this.k.positions.trade(tradeId);
      if (!trade || !this.visibleAccount(scope, trade.accountId))
        throw new CommandRefusal(404, 'trade_not_found', `trade ${tradeId} is unknown`);
      return tradeLotsToJson(trade);
    });
  }

  /** Positions the accounts traded, open or flat, in the order first traded. */
  positions(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page<PositionJson>> {
    return attempt(() =>
      pageOf(
        { name: 'positions', records: this.k.positions.everyPosition(), seqOf: (p) => p.seq },
        page,
        (p) =>
          this.visibleAccount(scope, p.accountId) &&
          (filter.account_id === undefined || p.accountId === filter.account_id) &&
          (filter.instrument_id === undefined || p.symbol === filter.instrument_id),
        (p) => positionToJson(p.view()),
      ),
    );
  }

  /** One position read directly (scenario `expect`); undefined when the account never traded the instrument. */
  position(accountId: string, symbol: string): PositionJson | undefined {
    const view = this.k.positions.position(accountId, symbol);
    return view && positionToJson(view);
  }

  /** Signed net quantity of an (account, instrument), 0 when flat or never traded (back-test traders). */
  netQuantity(accountId: string, symbol: string): number {
    return this.k.positions.livePositionQuantity(accountId, symbol);
  }

  /** Brings the daily position history up to the journal's last line (before the journal lets go of its lines). */
  catchUpDailyHistory(): void {
    this.daily.catchUp();
  }

  /** `{items}` of daily position records, from_date..to_date inclusive (docs/order-lifecycle.md#daily-position-records). */
  dailyPositions(
    scope: ReadScope,
    accountId: string,
    range: { from_date: string; to_date: string; instrument_id?: string },
  ): Outcome<{ items: DailyPositionJson[] }> {
    return attempt(() => {
      this.account(scope, accountId);
      const items = this.daily.records(this.k.clock.nowMs, {
        accountId,
        fromDate: range.from_date,
        toDate: range.to_date,
        ...(range.instrument_id === undefined ? {} : { instrumentId: range.instrument_id }),
      });
      return { items };
    });
  }

  // ---- figures for drivers that chart or judge accounts (internal units) ----

  /** Equity and the two floors in cents, for charts and for traders that react to them; undefined when unknown. */
  riskNumbers(accountId: string): RiskNumbers | undefined {
    const account = this.k.accounts.find(accountId);
    return account && riskNumbersOf(account, this.k.risk.equityCents(account));
  }

  /** An account's lifecycle and figures at the end of a back-test period. */
  accountHistory(accountId: string): AccountHistory {
    return accountHistoryOf(this.k.accounts.get(accountId));
  }

  // ---- helpers ----

  private item(account: RiskAccount): RiskStateJson {
    return riskStateJson(account, this.k.risk.equityCents(account));
  }

  private account(scope: ReadScope, accountId: string): RiskAccount {
    const account = this.k.accounts.find(accountId);
    if (!account || !inScope(scope, account))
      throw new CommandRefusal(404, 'account_not_found', `account ${accountId} is unknown`);
    return account;
  }

  private orderIn(scope: ReadScope, orderId: string): Order {
    const order = this.k.desk.find(orderId);
    if (!order || !this.visibleAccount(scope, order.accountId))
      throw new CommandRefusal(404, 'order_not_found', `order ${orderId} is unknown`);
    return order;
  }
}

declareSnapshot(KernelReads, {
  kept: ['daily'],
  skipped: ['k'],
});
