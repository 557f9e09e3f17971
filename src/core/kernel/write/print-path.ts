// The hot path of a market print (docs/risk-rules.md#order-of-work-at-one-print): the venue matches the
// instrument's resting orders first and every fill and cancel is applied, then positions and floors are marked, then
// the accounts that filled are checked. No command, no journal and no XState actor here: the kernel journals the
// print before it comes (kernel.ts).
import { matchPrint, type VenueAction } from '../../orders/fill-model.js';
import type { PositionBook } from '../../positions/index.js';
import type { KernelContext } from '../context.js';
import type { Executions } from './executions.js';
import type { OrderDesk } from './order-desk.js';
import type { RiskDesk } from '../risk/risk-desk.js';

export class PrintPath {
  constructor(
    private readonly ctx: KernelContext,
    private readonly desk: OrderDesk,
    private readonly positions: PositionBook,
    private readonly risk: RiskDesk,
    private readonly executions: Executions,
  ) {}

  /** One print of `symbol` at `priceTicks` (size Infinity for no limit), at the clock's time. */
  process(symbol: string, priceTicks: number, size: number): void {
    const book = this.desk.bookOf(symbol);
    let filled: Set<string> | undefined;
    if (book.workingCount > 0) {
      const actions = matchPrint(book, priceTicks, size, this.ctx.fillModel, this.desk);
      if (actions.length > 0) filled = this.applyVenueActions(actions);
    } else {
      book.lastPrintTicks = priceTicks;
    }
    this.positions.markPrice(symbol, priceTicks);
    this.risk.markCrossings(symbol, priceTicks);
    // Accounts a fill took flat are no longer holders but still need their check (commissions).
    if (filled) for (const accountId of filled) this.executions.afterFills(accountId);
  }

  /** Applies a print's fills and cancels, all of them before any account is marked; returns who filled. */
  private applyVenueActions(actions: readonly VenueAction[]): Set<string> {
    const occurredAtMs = this.ctx.clock.nowMs;
    const filled = new Set<string>();
    for (const action of actions) {
      if (action.kind === 'cancel') {
        this.desk.finish(action.order, { type: 'CANCEL', reason: action.reason, occurredAtMs });
        continue;
      }
      const { order, quantity, priceTicks } = action;
      order.filledNotionalTicks += priceTicks * quantity;
      this.desk.send(order, { type: 'FILL', quantity, occurredAtMs });
      if (order.phase === 'done') this.desk.dropExpiry(order);
      this.executions.execute(order.accountId, order.symbol, order.side, quantity, priceTicks, order.id);
      filled.add(order.accountId);
    }
    return filled;
  }
}
