// Executions booked on accounts (docs/risk-rules.md#order-of-work-at-one-print): a venue fill or a historical fill
// becomes a position change, lots, cash and commissions, with the events that go with them; the account is then
// marked and, if it must be, flattened.
import type { ProductFamily } from '../instruments.js';
import { CommandRefusal, success, type Outcome } from '../outcome.js';
import type { Side } from '../orders/order-types.js';
import { fillToJson, positionToJson, tradeToJson, type FillResult, type PositionBook } from '../positions/index.js';
import type { AccountBook } from './accounts.js';
import type { KernelCommand } from './commands.js';
import type { KernelContext } from './context.js';
import { eventData } from './events.js';
import { parsePrint } from './print-input.js';
import type { RiskDesk } from './risk-desk.js';

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
    if (account.status !== 'active' || account.locks.length > 0) {
      account.droppedFills++;
      const dropped = {
        account_id: account.id,
        instrument_id: print.symbol,
        dropped: true as const,
        reason:
          account.status !== 'active' ? `account is ${account.status}` : `account is locked (${account.locks[0]})`,
      };
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
    return result;
  }

  /** After an account's fills: marked, and flattened if a rule says so. */
  afterFills(accountId: string): void {
    const account = this.accounts.get(accountId);
    this.risk.mark(account);
    this.risk.ensureFlattening(account);
  }
}
