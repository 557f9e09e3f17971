// Invariants of the kernel's published events, shared by the order and account models. The watch listens to
// every event as the kernel publishes it, so it sees each fill at the instant it happens, with the account's
// status and locks and the order's status records as they are at that instant:
//
//  1. No position without the fills that built it: for each (account, instrument), the net position equals the
//     sum of the signed fills published for it (order fills and historical fills), and for each order, the sum
//     of its fills equals its filled_quantity.
//  2. A CANCELLED, REJECTED or EXPIRED order never fills: every fill of an order is announced by the order's own
//     status record raising filled_quantity by exactly that quantity (docs/order-lifecycle.md: a final order
//     takes no event), so a fill after a final record, or a second fill after FILLED, is caught.
//  3. A locked or failed account receives no client fills. As the rules mean it (docs/risk-rules.md):
//     - an order fill of a client order needs the account `active` (not failed, passed or closed) and no lock
//       but `firm_lockout`: a breach, a pass, a replace and a lockout with flatten cancel every working client
//       order at once (#what-a-breach-does, #passing, #replace, #lockout-and-unlock), and an order reaching the
//       venue while any lock is present is REJECTED at the gate (#the-order-gate);
//     - a plain lockout (without flatten) leaves working orders alone (#lockout-and-unlock), so while
//       `firm_lockout` is present a client order may fill only if it was already working at the venue when that
//       lock was added;
//     - a historical fill is booked only for an `active` account with no lock at all (#historical-fills);
//     - the risk engine's own (flattening) orders fill whatever the account's state.
import type { KernelEvent } from '../../src/core/kernel/events.js';
import type { Kernel } from '../../src/core/kernel/kernel.js';

const ENDED = new Set(['CANCELLED', 'REJECTED', 'EXPIRED']);

interface OrderWatch {
  /** filled_quantity as the order's last status record gave it. */
  filled: number;
  /** Quantity the last status record announced as filled and no fill event has taken yet. */
  announced: number;
  /** The final status record other than FILLED, once there is one. */
  ended: string | undefined;
  /** Σ quantities of the order's published fills. */
  fillSum: number;
}

interface AccountWatch {
  status: string;
  locks: Set<string>;
  /** Client orders working at the venue when firm_lockout was last added. */
  workingAtLockout: Set<string>;
}

export class FillWatch {
  /** What went wrong, in the order it happened; the models fail on the first. */
  readonly violations: string[] = [];
  private readonly orders = new Map<string, OrderWatch>();
  private readonly accounts = new Map<string, AccountWatch>();
  /** Σ signed published fills per account and instrument ("account|symbol"). */
  private readonly netOfFills = new Map<string, number>();
  fillCount = 0;
  /** Client fills under firm_lockout (of orders working when it came): the exception the rules make. */
  fillsUnderFirmLockout = 0;

  constructor(private readonly kernel: Kernel) {
    kernel.events$.subscribe((event) => this.take(event));
  }

  /** The account as the published lock events leave it (accounts open active and unlocked). */
  account(accountId: string): AccountWatch {
    let account = this.accounts.get(accountId);
    if (!account)
      this.accounts.set(accountId, (account = { status: 'active', locks: new Set(), workingAtLockout: new Set() }));
    return account;
  }

  private order(orderId: string): OrderWatch {
    let order = this.orders.get(orderId);
    if (!order) this.orders.set(orderId, (order = { filled: 0, announced: 0, ended: undefined, fillSum: 0 }));
    return order;
  }

  private take(event: KernelEvent): void {
    const data = event.data;
    switch (event.type) {
      case 'orders.state': {
        const order = this.order(data.order_id as string);
        const filled = data.filled_quantity as number;
        if (filled > order.filled) order.announced += filled - order.filled;
        order.filled = filled;
        if (ENDED.has(data.status as string)) order.ended = data.status as string;
        return;
      }
      case 'accounts.locked':
      case 'accounts.unlocked': {
        const account = this.account(data.account_id as string);
        account.status = data.account_status as string;
        if (event.type === 'accounts.unlocked') {
          account.locks.delete(data.lock as string);
          return;
        }
        account.locks.add(data.lock as string);
        if (data.lock === 'firm_lockout') {
          const working = this.kernel
            .internals()
            .desk.workingOrdersOf(data.account_id as string)
            .filter((o) => o.origin === 'client' && o.phase === 'working');
          account.workingAtLockout = new Set(working.map((o) => o.id));
        }
        return;
      }
      case 'fills.created':
        return this.fill(event);
      default:
        return;
    }
  }

  private fill(event: KernelEvent): void {
    const data = event.data;
    const accountId = data.account_id as string;
    const quantity = data.quantity as number;
    // A historical fill has no order: its order_id is left out (docs/api.md#shapes).
    const orderId = data.order_id as string | undefined;
    const key = `${accountId}|${data.instrument_id as string}`;
    this.netOfFills.set(key, (this.netOfFills.get(key) ?? 0) + (data.side === 'buy' ? quantity : -quantity));
    this.fillCount++;
    const account = this.account(accountId);
    const state = `account ${accountId} ${account.status}, locks [${[...account.locks].join(',')}]`;
    const what = `fill ${String(data.execution_id)} (${data.side as string} ${quantity} ${data.instrument_id as string} @${data.price as string} at ${event.timeMs})`;
    if (orderId === undefined) {
      if (account.status !== 'active' || account.locks.size > 0)
        this.violations.push(
          `${what}: a historical fill was booked for a locked or inactive account (${state}); docs/risk-rules.md#historical-fills drops it`,
        );
      return;
    }
    const order = this.order(orderId);
    order.fillSum += quantity;
    if (order.ended !== undefined)
      this.violations.push(`${what}: order ${orderId} is ${order.ended}, yet it filled: a final order never fills`);
    else if (order.announced !== quantity)
      this.violations.push(
        `${what}: order ${orderId} has no status record for this fill (its records announced ${order.announced}): an order fills only through its own lifecycle`,
      );
    order.announced = 0;
    const origin = this.kernel.internals().desk.find(orderId)?.origin;
    if (origin !== 'client') return;
    const otherLocks = [...account.locks].filter((lock) => lock !== 'firm_lockout');
    if (account.status !== 'active' || otherLocks.length > 0) {
      this.violations.push(
        `${what}: client order ${orderId} filled on a ${account.status} or breached account (${state}): breaches, passes and replaces cancel client orders at once`,
      );
    } else if (account.locks.has('firm_lockout')) {
      if (!account.workingAtLockout.has(orderId))
        this.violations.push(
          `${what}: client order ${orderId} filled under firm_lockout but was not working at the venue when the lock came (${state}): the gate refuses it`,
        );
      this.fillsUnderFirmLockout++;
    }
  }

  /** Invariant 1 after a command: positions and filled quantities are the published fills' sums. */
  positionViolations(accountIds: readonly string[]): string[] {
    const found: string[] = [];
    const { positions, desk } = this.kernel.internals();
    for (const accountId of accountIds) {
      const symbols = new Set(positions.positions(accountId).map((p) => p.symbol));
      for (const key of this.netOfFills.keys())
        if (key.startsWith(`${accountId}|`)) symbols.add(key.slice(accountId.length + 1));
      for (const symbol of symbols) {
        const net = positions.position(accountId, symbol)?.netQuantity ?? 0;
        const published = this.netOfFills.get(`${accountId}|${symbol}`) ?? 0;
        if (net !== published)
          found.push(
            `account ${accountId} ${symbol}: net position ${net} ≠ Σ signed published fills ${published}: a position without the fills that built it`,
          );
      }
    }
    for (const order of desk.orderList) {
      const fillSum = this.orders.get(order.id)?.fillSum ?? 0;
      if (order.filledQuantity !== fillSum)
        found.push(
          `order ${order.id} (${order.origin} ${order.symbol}, ${order.status}): filled_quantity ${order.filledQuantity} ≠ Σ its published fills ${fillSum}`,
        );
    }
    return found;
  }
}
