// Which firm (and user) owns each id the sandbox has minted (docs/api.md#the-auth-matrix: a caller never sees
// another firm's ids, a trader only its own accounts'). Read from the kernel, in every firm's scope, whenever an
// answer names an id not seen before; forgotten when the kernel is another (a reset, a restart), which mints the
// same ids again.
import type { Kernel } from '../core/kernel/kernel.js';
import type { Page, PageRequest } from '../core/kernel/read/paging.js';
import type { Outcome } from '../core/outcome.js';
import type { SimCast } from './sim-clients.js';

export interface Owner {
  firm: number;
  /** The user whose account it concerns; undefined for what is the firm's (its id, a staff member). */
  user: string | undefined;
}

export class OwnershipIndex {
  private owners = new Map<string, Owner>();
  /** The kernel read, and its journal length then: a reading again finds nothing new until it grows. */
  private readFrom: Kernel | undefined;
  private readAt = -1;

  constructor(
    private readonly cast: SimCast,
    private readonly kernel: () => Kernel,
  ) {}

  ownerOf(id: string): Owner | undefined {
    const kernel = this.kernel();
    if (kernel !== this.readFrom) {
      this.owners = new Map();
      this.readAt = -1;
    }
    const known = this.owners.get(id);
    if (known || this.readAt === kernel.journal.length) return known;
    this.readAll();
    return this.owners.get(id);
  }

  private readAll(): void {
    const kernel = this.kernel();
    const read = kernel.read;
    this.readFrom = kernel;
    this.readAt = kernel.journal.length;
    this.cast.firms.forEach((simFirm, firm) => {
      const found = read.firm(simFirm.slug);
      if (!found) return;
      const scope = { firmId: found.firm_id };
      this.owners.set(found.firm_id, { firm, user: undefined });
      for (const email of simFirm.emails)
        for (const user of read.usersByEmail(email))
          if (user.firm_id === found.firm_id) this.owners.set(user.user_id, { firm, user: user.user_id });
      const userOf = new Map<string, string>();
      for (const account of everyPage((page) => read.accounts(scope, {}, page))) {
        userOf.set(account.account_id, account.user_id);
        this.owners.set(account.account_id, { firm, user: account.user_id });
        this.owners.set(account.user_id, { firm, user: account.user_id });
        for (const adjustment of everyPage((page) => read.adjustments(scope, account.account_id, page)))
          this.owners.set(adjustment.adjustment_id, { firm, user: account.user_id });
      }
      const own = (accountId: string): Owner => ({ firm, user: userOf.get(accountId) });
      for (const order of everyPage((page) => read.orders(scope, {}, page))) {
        this.owners.set(order.order_id, own(order.account_id));
        if (order.oco_group_id) this.owners.set(order.oco_group_id, own(order.account_id));
      }
      for (const fill of everyPage((page) => read.fills(scope, {}, page))) {
        this.owners.set(fill.execution_id, own(fill.account_id));
        this.owners.set(fill.trade_id, own(fill.account_id));
      }
      for (const trade of everyPage((page) => read.trades(scope, {}, page)))
        this.owners.set(trade.trade_id, own(trade.account_id));
    });
  }
}

/** Every item of a kernel list, page by page. */
export function everyPage<T>(read: (page: PageRequest) => Outcome<Page<T>>): T[] {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const outcome = read({ limit: 500, ...(cursor === undefined ? {} : { cursor }) });
    if (!outcome.ok) throw new Error(`a kernel list failed: ${JSON.stringify(outcome.body)}`);
    items.push(...outcome.body.items);
    cursor = outcome.body.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}
