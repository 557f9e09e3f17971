// Executions booked on accounts (docs/risk-rules.md#order-of-work-at-one-print): a venue fill or a historical fill
// becomes a position change, lots, cash and commissions, with the events that go with them; the account is then
// marked and, if it must be, flattened.
import { parseSymbol, type ProductFamily } from '../../instruments.js';
import { CommandRefusal, success, type Outcome } from '../../outcome.js';
import type { Side } from '../../orders/order-types.js';
import { fillToJson, positionToJson, tradeToJson, type FillResult, type PositionBook } from '../../positions/index.js';
import type { AccountBook, RiskAccount } from '../accounts.js';
import { newsRefusal } from '../risk/news-blackout.js';
import type { KernelCommand } from './commands.js';
import type { KernelContext } from '../context.js';
import { eventData } from '../events.js';
import { parsePrint } from './print-input.js';
import type { RiskDesk } from '../risk/risk-desk.js';

export class Executions {
  constructor(
    private readonly ctx: KernelContext,
    private readonly accounts: AccountBook,
    private readonly positions: PositionBook,
    private readonly risk: RiskDesk,
    private readonly familyOf: (symbol: string) => ProductFamily,
  ) {}

  /** A historical execution replayed without the venue (docs/risk-rules.md#historical-fills). */
  recordFill(fill: Extract<KernelCommand, { type: 'record_fill' }>): Outcome<unknown> {
    const nowMs = this.ctx.clock.nowMs;
    if (fill.occurred_at !== undefined && fill.occurred_at > nowMs) {
      // History cannot run ahead of the clock (docs/risk-rules.md#historical-fills).
      const message = `occurred_at ${fill.occurred_at} is after the simulated clock ${nowMs}: a historical fill cannot come from the future`;
      throw new CommandRefusal(400, 'fill_in_future', message, [{ field: 'occurred_at', message }]);
    }
    const account = this.accounts.get(fill.account_id);
    const print = parsePrint(fill.instrument_id, fill.price, fill.quantity);
    const refused =
      account.status !== 'active'
        ? `account is ${account.status}`
        : account.locks.length > 0
          ? `account is locked (${account.locks[0]})`
          : this.newsRefusal(account, print.symbol, fill.side, fill.quantity, fill.occurred_at ?? nowMs);
    if (refused !== undefined) {
      account.droppedFills++;
      const dropped = { account_id: account.id, instrument_id: print.symbol, dropped: true as const, reason: refused };
      this.ctx.emit('fills.dropped', () => dropped);
      return success(200, dropped);
    }
    const result = this.execute(
      account.id,
      print.symbol,
      fill.side,
      fill.quantity,
      print.priceTicks,
      null,
      fill.occurred_at,
    );
    this.afterFills(account.id);
    return success(201, fillToJson(result.fill));
  }

  /**
   * A historical entry in a news blackout of its root is dropped, as the gate would have refused its order (no_entry,
   * flatten; docs/risk-rules.md#news-blackouts): the refusal's words, or undefined.
   */
  private newsRefusal(
    account: RiskAccount,
    symbol: string,
    side: Side,
    quantity: number,
    atMs: number,
  ): string | undefined {
    const news = account.plan.riskProfile.news;
    if (news === undefined || news.action === 'fail') return undefined;
    const net = this.positions.livePositionQuantity(account.id, symbol);
    return newsRefusal(news, parseSymbol(symbol).spec, side, quantity, net, atMs)?.message;
  }

  /** Books one execution: position, lots, cash, and the events that go with them. */
  execute(
    accountId: string,
    symbol: string,
    side: Side,
    quantity: number,
    priceTicks: number,
    orderId: string | null,
    occurredAtMs = this.ctx.clock.nowMs,
  ): FillResult {
    const account = this.accounts.get(accountId);
    const commissionCents = account.plan.commissionPerContractCents * quantity;
    // A news rule that fails compares the position before and after (docs/risk-rules.md#news-blackouts).
    const newsFails = account.plan.riskProfile.news?.action === 'fail';
    const netBefore = newsFails ? this.positions.livePositionQuantity(accountId, symbol) : 0;
    const result = this.positions.applyFill({
      executionId: this.ctx.ids.nextUuid(),
      orderId,
      accountId,
      symbol,
      side,
      quantity,
      priceTicks,
      occurredAtMs,
      tradeDate: this.ctx.calendar.tradeDateOfFamily(occurredAtMs, this.familyOf(symbol)),
      commissionCents,
    });
    this.ctx.emit('fills.created', () => eventData(fillToJson(result.fill)));
    if (result.openedPosition) this.ctx.emit('positions.created', () => eventData(positionToJson(result.position)));
    for (const tradeId of result.tradesClosed)
      this.ctx.emit('trades.closed', () => eventData(tradeToJson(this.positions.trade(tradeId)!)));
    this.risk.bookFill(account, result.realizedCents, commissionCents, result.fill.tradeDate);
    if (newsFails)
      this.risk.noteFill(
        account,
        symbol,
        parseSymbol(symbol).spec,
        netBefore,
        result.position.netQuantity,
        occurredAtMs,
      );
    return result;
  }

  /** After an account's fills: marked, and flattened if a rule says so. */
  afterFills(accountId: string): void {
    const account = this.accounts.get(accountId);
    this.risk.mark(account);
    this.risk.judgeFills(account);
    this.risk.ensureFlattening(account);
  }
}
