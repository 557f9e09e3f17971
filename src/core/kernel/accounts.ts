// The account ledger the kernel keeps for issue 3: cash balance from starting balance, realized P&L,
// commissions. The risk engine (floors, locks, sessions) builds on it.
import { formatCents } from '../money.js';
import { CommandRefusal } from '../outcome.js';

export interface AccountLedger {
  readonly id: string;
  readonly alias: string | undefined;
  readonly startingBalanceCents: number;
  readonly commissionPerContractCents: number;
  balanceCents: number;
  realizedCents: number;
  commissionCents: number;
  /** Historical fills refused because the account could not trade (RULES §9). */
  droppedFills: number;
}

export interface OpenAccountInput {
  alias?: string;
  startingBalanceCents: number;
  commissionPerContractCents: number;
}

export class AccountBook {
  private readonly byId = new Map<string, AccountLedger>();

  open(id: string, input: OpenAccountInput): AccountLedger {
    const account: AccountLedger = {
      id,
      alias: input.alias,
      startingBalanceCents: input.startingBalanceCents,
      commissionPerContractCents: input.commissionPerContractCents,
      balanceCents: input.startingBalanceCents,
      realizedCents: 0,
      commissionCents: 0,
      droppedFills: 0,
    };
    this.byId.set(id, account);
    return account;
  }

  find(id: string): AccountLedger | undefined {
    return this.byId.get(id);
  }

  /** The account, or a 404 refusal naming it. */
  get(id: string): AccountLedger {
    const account = this.byId.get(id);
    if (!account) throw new CommandRefusal(404, 'account_not_found', `account ${id} is unknown`);
    return account;
  }

  all(): IterableIterator<AccountLedger> {
    return this.byId.values();
  }

  /** Books a fill's realized P&L and commission to cash. */
  applyFill(account: AccountLedger, realizedCents: number, commissionCents: number): void {
    account.realizedCents += realizedCents;
    account.commissionCents += commissionCents;
    account.balanceCents += realizedCents - commissionCents;
  }
}

export function accountBalanceJson(account: AccountLedger): Record<string, unknown> {
  return { account_id: account.id, balance: formatCents(account.balanceCents) };
}
