// The kernel's read side (docs/architecture.md#one-kernel-many-drivers): what drivers may read, in the API's shapes
// (docs/api.md#shapes), with cursor paging. Reads change nothing and are not journaled.
import type { Outcome } from '../outcome.js';

export type Json = Record<string, unknown>;

/** One page of a list: `next_cursor` is null on the last page. */
export interface Page<T = Json> {
  items: T[];
  next_cursor: string | null;
}

/** `limit` 1–500 (default 100); `cursor` is the opaque `next_cursor` of the previous page. */
export interface PageRequest {
  limit?: number;
  cursor?: string;
}

/**
 * Who may see what: a firm key sees its firm (`firmId`), a trader's session its own accounts (`userId`), a
 * platform admin everything (neither). Records outside the scope are never returned, and single reads of them
 * answer 404 as if unknown.
 */
export interface ReadScope {
  firmId?: string;
  userId?: string;
}

/** List filters, as the resource allows (times are Unix ms, inclusive). */
export interface ListFilter {
  account_id?: string;
  instrument_id?: string;
  status?: string;
  from?: number;
  to?: number;
  user_id?: string;
  idempotency_key?: string;
}

export interface ClockState {
  now_ms: number;
  /** ISO 8601 in Chicago time, with its offset. */
  now: string;
  trade_date: string;
  is_open: boolean;
}

/** Owner of an account: the firm and the trader it belongs to (scenario accounts may have neither). */
export interface AccountOwner {
  account_id: string;
  firm_id?: string;
  user_id?: string;
}

export interface UserIdentity {
  user_id: string;
  firm_id: string;
  firm_slug: string;
  email: string;
  kind: 'trader' | 'staff';
}

export interface KernelQueries {
  clock(): ClockState;
  /** The account's owner, or undefined when unknown (the gateway's cross-firm 404 and JWT ownership). */
  accountOwner(accountId: string): AccountOwner | undefined;
  /** The firm id of a firm slug or id, undefined when unknown (a platform admin's X-Firm-ID). */
  firmId(slugOrId: string): string | undefined;
  /** A trader (made by provisioning) or staff member (from the seed) by email, case-insensitive (login). */
  userByEmail(email: string): UserIdentity | undefined;
  userById(userId: string): UserIdentity | undefined;

  /** GET /v1/firm-control/accounts: `{account_id, user_id, plan_reference, status, idempotency_key?, price_paid, created_at}`. */
  accounts(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page>;
  /** GET risk-state: `{item}`; 503 `risk_loading` inside the loading window, 404 when unknown or out of scope. */
  riskState(scope: ReadScope, accountId: string): Outcome<{ item: Json }>;
  /** The live risk state item read directly, without the loading window (scenario `expect`, reports). */
  accountState(accountId: string): Json | undefined;
  /** Every account's risk state item in opening order (state.json, reports). */
  allAccountStates(): Json[];

  order(scope: ReadScope, orderId: string): Outcome<Json>;
  orderStates(scope: ReadScope, orderId: string): Outcome<{ items: Json[] }>;
  orders(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page>;
  fills(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page>;
  trades(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page>;
  tradeLots(scope: ReadScope, tradeId: string): Outcome<Json>;
  /** Current positions (open ones, and flat ones that traded), paged. */
  positions(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page>;
  /** `{items}` of daily position records, from_date..to_date inclusive (YYYY-MM-DD). */
  dailyPositions(
    scope: ReadScope,
    accountId: string,
    range: { from_date: string; to_date: string; instrument_id?: string },
  ): Outcome<{ items: Json[] }>;
  balance(scope: ReadScope, accountId: string): Outcome<Json>;
  balances(scope: ReadScope, filter: ListFilter, page: PageRequest): Outcome<Page>;
  adjustments(scope: ReadScope, accountId: string, page: PageRequest): Outcome<Page>;
  stats(scope: ReadScope, accountId: string): Outcome<Json>;
}
