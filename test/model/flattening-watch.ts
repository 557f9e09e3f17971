// "Flattening ends flat", shared by the order and account models. From a breach, a pass, a replace, a lockout
// with flatten or a flatten (docs/risk-rules.md#what-a-breach-does, #lockout-and-unlock, #flatten, #passing;
// docs/order-lifecycle.md#risk-orders), the risk engine keeps one offsetting market order working per open
// position, sized to what is still open, until the account is flat, whatever happens to one of its orders; a
// client can neither cancel nor modify those orders (409 risk_order). Outside flattening it has no order working.
// The watch keeps which accounts are being flattened from the lock events and the requests the model made, and
// compares the risk orders with the positions.
import type { Kernel } from '../../src/core/kernel/kernel.js';

/** Locks whose arrival flattens the account (a plain firm_lockout does not). */
const FLATTENING_LOCKS = new Set(['max_loss_breach', 'daily_loss_breach', 'evaluation_passed', 'account_replaced']);

export class FlatteningWatch {
  private readonly flattening = new Set<string>();

  constructor(private readonly kernel: Kernel) {
    kernel.events$.subscribe((event) => {
      if (event.type === 'accounts.locked' && FLATTENING_LOCKS.has(event.data.lock as string))
        this.flattening.add(event.data.account_id as string);
    });
  }

  /** A flatten, or a lockout with flatten, was accepted for the account. */
  requested(accountId: string): void {
    this.flattening.add(accountId);
  }

  isFlattening(accountId: string): boolean {
    return this.flattening.has(accountId);
  }

  private openPositions(accountId: string): Map<string, number> {
    const open = new Map<string, number>();
    for (const p of this.kernel.internals().positions.positions(accountId))
      if (p.netQuantity !== 0) open.set(p.symbol, p.netQuantity);
    return open;
  }

  /** The risk orders still working (or on their way) of an account. */
  riskOrders(accountId: string) {
    return this.kernel
      .internals()
      .desk.orderList.filter((o) => o.accountId === accountId && o.origin === 'risk' && o.phase !== 'done');
  }

  /**
   * After a command: an account that is flat again is no longer being flattened; then each account being
   * flattened has exactly one risk order per open position, on the closing side, for the open quantity, and
   * every other account has none. Answers what is wrong.
   */
  settle(accountIds: readonly string[]): string[] {
    const found: string[] = [];
    for (const accountId of accountIds) {
      const open = this.openPositions(accountId);
      if (open.size === 0) this.flattening.delete(accountId);
      const risk = this.riskOrders(accountId);
      const positions = JSON.stringify(Object.fromEntries(open));
      if (!this.flattening.has(accountId)) {
        if (risk.length > 0)
          found.push(
            `account ${accountId} is not being flattened (positions ${positions}) yet has ${risk.length} risk order(s) working`,
          );
        continue;
      }
      for (const [symbol, net] of open) {
        const closing = risk.filter((o) => o.symbol === symbol);
        const remaining = closing.map((o) => `${o.side} ${o.quantity - o.filledQuantity}`).join(', ') || 'none';
        const fits =
          closing.length === 1 &&
          closing[0]!.side === (net > 0 ? 'sell' : 'buy') &&
          closing[0]!.quantity - closing[0]!.filledQuantity === Math.abs(net);
        if (!fits)
          found.push(
            `account ${accountId} is being flattened and holds ${net} ${symbol}, so one risk order must close exactly that: working ${remaining}`,
          );
      }
      for (const order of risk)
        if (!open.has(order.symbol))
          found.push(`account ${accountId} is flat in ${order.symbol} yet risk order ${order.id} still works there`);
    }
    return found;
  }
}
