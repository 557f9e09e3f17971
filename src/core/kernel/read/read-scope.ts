// Who reads and what a list is filtered by (docs/api.md#lists-and-pagination): the scope of a read (a firm key sees
// its firm, a trader's session its own accounts, a platform admin everything), the list filters, and a read answered
// as an Outcome, a CommandRefusal turned into its failure. Shared by the reads of reads.ts.
import { CommandRefusal, refusalOutcome, success, type Outcome } from '../../outcome.js';
import type { RiskAccount } from '../accounts.js';

/** Who is reading: a firm (firm key), a user of a firm (trader session), or everyone (platform admin). */
export interface ReadScope {
  firmId?: string;
  userId?: string;
}

/** List filters, as the resource allows (times are Unix ms, inclusive). */
export interface ListFilter {
  account_id?: string | undefined;
  instrument_id?: string | undefined;
  status?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  user_id?: string | undefined;
  idempotency_key?: string | undefined;
}

export interface UserIdentity {
  user_id: string;
  firm_id: string;
  firm_slug: string;
  email: string;
  kind: 'trader' | 'staff';
}

/** Whether the scope sees the account. */
export function inScope(scope: ReadScope, account: RiskAccount): boolean {
  return (
    (scope.firmId === undefined || account.firmId === scope.firmId) &&
    (scope.userId === undefined || account.userId === scope.userId)
  );
}

/** Whether a record's time is within the filter's from/to. */
export function inTime(filter: ListFilter, timeMs: number): boolean {
  return (filter.from === undefined || timeMs >= filter.from) && (filter.to === undefined || timeMs <= filter.to);
}

/** A read as an Outcome: 200 with its value, or the failure of the CommandRefusal it threw. */
export function attempt<T>(read: () => T): Outcome<T> {
  try {
    return success(200, read());
  } catch (error) {
    if (error instanceof CommandRefusal) return refusalOutcome(error);
    throw error;
  }
}
