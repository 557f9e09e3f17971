// The provisioning registry (POST/GET /v1/firm-control/accounts, docs/risk-rules.md#provisioning, and POST …/replace,
// docs/risk-rules.md#replace): firms and their plan templates by plan_reference, the firms' users, and one record per
// evaluation account saying who it belongs to and which plan it was minted from. Pure and in memory: ids come from
// the caller's seeded generator, times from the caller's clock. The kernel owns what happens to an account after it
// exists (ledger, risk state, locks, closing); this registry only knows the mapping and the plan.
//
// The rules (docs/risk-rules.md#provisioning; provisioning-request.ts for the body):
// - An unknown plan_reference is malformed input: 400 `invalid_request` naming `plan_reference`; 404 is for
//   accounts and users only. An unknown user_id is 404 `user_not_found`.
// - Users belong to one firm and are found by lowercase email within it; the same email in another firm is
//   another user. A known user is reused as is (a `name` in the body is used only when the user is created).
// - idempotency_key is unique among a firm's accounts. A repeat answers 200 with the ORIGINAL user and
//   account(s) — all of them for a bulk create — and creates nothing, even when the rest of the body differs
//   (the body must still be well-formed: malformed input is refused before the key is looked up; plan and
//   user are not resolved again). The same key in another firm is a new purchase.
// - price_paid absent = 0. A replacement account has price share 0 and no idempotency key (the purchase id
//   stays with the accounts it bought; the replacement is reached through replaced_by_account_id).
// - Ids are drawn in this order: the new user's (if any), then the accounts' in creation order.
// - Nothing is stored unless the whole request succeeds.
import { splitCents } from '../money.js';
import { CommandRefusal, invalidRequest } from '../outcome.js';
import { applyProvisioningOverlay } from './plan-overlay.js';
import type { PlanTemplate } from './plans.js';
import {
  parseProvisioningRequest,
  refuseFieldErrors,
  type NewTrader,
  type ProvisioningRequest,
} from './provisioning-request.js';
import { declareSnapshot } from '../snapshot/snapshot-fields.js';
import type {
  AccountQuery,
  AccountRecord,
  FirmRecord,
  ProvisionResult,
  ReplaceResult,
  UserRecord,
} from './provisioning-records.js';

export type { AccountQuery, AccountRecord, FirmRecord, ProvisionResult, ReplaceResult, UserRecord };

interface FirmState extends FirmRecord {
  readonly plans: ReadonlyMap<string, PlanTemplate>;
  readonly users: Map<string, UserRecord>;
  readonly userIdByEmail: Map<string, string>;
  /** The firm's account ids in creation order. */
  readonly accountIds: string[];
  readonly accountIdsByKey: Map<string, readonly string[]>;
}

export class Provisioning {
  private readonly firms = new Map<string, FirmState>();
  private readonly accounts = new Map<string, AccountRecord>();
  private readonly accountList: AccountRecord[] = [];

  /** Registers a firm and its plan templates by plan_reference. A firm id and a slug are registered once. */
  registerFirm(firm: FirmRecord, plans: ReadonlyMap<string, PlanTemplate>): void {
    if (this.firms.has(firm.firmId)) throw new Error(`firm ${firm.firmId} is already registered`);
    if (this.firmBySlugOrId(firm.slug))
      throw new CommandRefusal(409, 'firm_exists', `a firm with slug ${firm.slug} is already registered`);
    this.firms.set(firm.firmId, {
      ...firm,
      plans: new Map(plans),
      users: new Map(),
      userIdByEmail: new Map(),
      accountIds: [],
      accountIdsByKey: new Map(),
    });
  }

  hasFirm(firmId: string): boolean {
    return this.firms.has(firmId);
  }

  /** A firm by its slug or id (a platform admin's X-Firm-ID names either). */
  firmBySlugOrId(slugOrId: string): FirmRecord | undefined {
    const byId = this.firms.get(slugOrId);
    if (byId) return byId;
    for (const firm of this.firms.values()) if (firm.slug === slugOrId) return firm;
    return undefined;
  }

  /** Adds a staff member who can log in (the sandbox seed); the same email twice in a firm is refused. */
  addStaff(
    firmId: string,
    staff: { email: string; firstName?: string },
    newId: () => string,
    nowMs: number,
  ): UserRecord {
    const firm = this.firm(firmId);
    if (firm.userIdByEmail.has(staff.email))
      throw new CommandRefusal(409, 'user_exists', `${staff.email} is already a user of firm ${firm.slug}`);
    return this.createUser(
      firm,
      { kind: 'email', email: staff.email, ...(staff.firstName === undefined ? {} : { firstName: staff.firstName }) },
      newId,
      nowMs,
      'staff',
    );
  }

  /** The users with this email (lowercase), one per firm that has one, in firm registration order. */
  usersByEmail(email: string): UserRecord[] {
    const found: UserRecord[] = [];
    for (const firm of this.firms.values()) {
      const userId = firm.userIdByEmail.get(email);
      if (userId !== undefined) found.push(firm.users.get(userId)!);
    }
    return found;
  }

  /** A user by id in any firm. */
  findUser(userId: string): UserRecord | undefined {
    return this.userInFirm(undefined, userId);
  }

  /** The firm's plan references, in registration order. */
  planReferences(firmId: string): string[] {
    return [...this.firm(firmId).plans.keys()];
  }

  /**
   * POST /v1/firm-control/accounts: `body` is the decoded JSON body. Creates the user if new and `count`
   * accounts, or answers the original accounts (200) when the idempotency key repeats in this firm.
   * Throws CommandRefusal: 400 `invalid_request` (naming the field), 404 `user_not_found`.
   */
  provision(firmId: string, body: unknown, newId: () => string, nowMs: number): ProvisionResult {
    const firm = this.firm(firmId);
    const request = parseProvisioningRequest(body);
    const replay = request.idempotencyKey === undefined ? undefined : firm.accountIdsByKey.get(request.idempotencyKey);
    if (replay !== undefined) return this.replayed(firm, replay);

    const template = firm.plans.get(request.planReference);
    if (template === undefined) throw unknownPlan(firm, request.planReference);
    const plans = refuseFieldErrors(() =>
      Array.from({ length: request.count }, () => applyProvisioningOverlay(template, request.overlay)),
    );
    const trader = request.trader;
    const known =
      trader.kind === 'user_id'
        ? this.knownUser(firm, trader.userId)
        : (this.userByEmail(firm, trader.email) ?? trader);

    // Everything is checked: from here on the request succeeds.
    const user = 'userId' in known ? known : this.createUser(firm, known, newId, nowMs, 'trader');
    const shares = splitCents(request.pricePaidCents, request.count);
    const accounts = plans.map((plan, i) =>
      this.store(
        firm,
        newAccount(firm, user, request, template, plan, shares[i] ?? 0, newId, nowMs, this.accounts.size + 1),
      ),
    );
    if (request.idempotencyKey !== undefined)
      firm.accountIdsByKey.set(
        request.idempotencyKey,
        accounts.map((a) => a.accountId),
      );
    return { status: 201, user, accounts };
  }

  /**
   * GET /v1/firm-control/accounts: the firm's accounts in creation order (replacements included), narrowed
   * by user_id and/or idempotency_key (both given = both must match). An unknown user or key matches nothing.
   * Accounts of other firms are never returned; firmId undefined (platform admin) reads all firms. Paging is
   * the caller's.
   */
  lookup(firmId: string | undefined, query: AccountQuery = {}): AccountRecord[] {
    const records = firmId === undefined ? this.allAccounts(query) : this.firmAccounts(this.firm(firmId), query);
    return query.user_id === undefined ? records : records.filter((r) => r.userId === query.user_id);
  }

  private firmAccounts(firm: FirmState, query: AccountQuery): AccountRecord[] {
    const ids =
      query.idempotency_key === undefined ? firm.accountIds : (firm.accountIdsByKey.get(query.idempotency_key) ?? []);
    return ids.map((id) => this.accounts.get(id)!);
  }

  /** Every provisioned account of every firm in creation order (live, read-only). */
  everyAccount(): readonly AccountRecord[] {
    return this.accountList;
  }

  /** Platform admin: every firm's accounts in creation order (a key narrows to the purchases that used it). */
  private allAccounts(query: AccountQuery): AccountRecord[] {
    const records = [...this.accounts.values()];
    return query.idempotency_key === undefined
      ? records
      : records.filter((r) => r.idempotencyKey === query.idempotency_key);
  }

  /** Whether an account was provisioned here (scenario accounts are opened on a plan directly). */
  hasAccount(accountId: string): boolean {
    return this.accounts.has(accountId);
  }

  /** The account's record, when it was provisioned. */
  findAccount(accountId: string): AccountRecord | undefined {
    return this.accounts.get(accountId);
  }

  /** The account, or 404 `account_not_found` when unknown or outside the firm (undefined firm = platform admin). */
  account(firmId: string | undefined, accountId: string): AccountRecord {
    const record = this.accounts.get(accountId);
    if (record === undefined || (firmId !== undefined && record.firmId !== firmId)) {
      throw new CommandRefusal(404, 'account_not_found', `account ${accountId} is unknown`);
    }
    return record;
  }

  /** The user, or 404 `user_not_found` when unknown or outside the firm (undefined firm = platform admin). */
  user(firmId: string | undefined, userId: string): UserRecord {
    const user = this.userInFirm(firmId, userId);
    if (user === undefined) throw new CommandRefusal(404, 'user_not_found', `user ${userId} is unknown`);
    return user;
  }

  /**
   * POST …/accounts/{id}/replace: mints a new account for the same user from the same template and overlays
   * (not from the original's possibly changed plan), price share 0, linked both ways. 404 when the account
   * is unknown or outside the firm; 409 `account_closed` when it was already replaced. The kernel flattens
   * and closes the original and starts the new account's risk state.
   */
  replace(firmId: string | undefined, accountId: string, newId: () => string, nowMs: number): ReplaceResult {
    const original = this.account(firmId, accountId);
    if (original.replacedByAccountId !== undefined) {
      throw new CommandRefusal(
        409,
        'account_closed',
        `account ${accountId} was already replaced by ${original.replacedByAccountId}`,
      );
    }
    const firm = this.firm(original.firmId);
    const replacement = this.store(firm, {
      seq: this.accounts.size + 1,
      accountId: newId(),
      firmId: original.firmId,
      userId: original.userId,
      planReference: original.planReference,
      template: original.template,
      plan: applyProvisioningOverlay(original.template, original.overlay),
      overlay: original.overlay,
      pricePaidCents: 0,
      createdAtMs: nowMs,
      replacesAccountId: original.accountId,
    });
    original.replacedByAccountId = replacement.accountId;
    return { original, replacement };
  }

  /** The firm, or 404 `firm_not_found`. */
  private firm(firmId: string): FirmState {
    const firm = this.firms.get(firmId);
    if (firm === undefined) throw new CommandRefusal(404, 'firm_not_found', `firm ${firmId} is unknown`);
    return firm;
  }

  private userInFirm(firmId: string | undefined, userId: string): UserRecord | undefined {
    if (firmId !== undefined) return this.firms.get(firmId)?.users.get(userId);
    for (const firm of this.firms.values()) {
      const user = firm.users.get(userId);
      if (user !== undefined) return user;
    }
    return undefined;
  }

  private replayed(firm: FirmState, accountIds: readonly string[]): ProvisionResult {
    const accounts = accountIds.map((id) => this.accounts.get(id)!);
    const user = firm.users.get(accounts[0]!.userId)!;
    return { status: 200, user, accounts };
  }

  /** A user of the firm by id, or 404 `user_not_found` naming the user_id field. */
  private knownUser(firm: FirmState, userId: string): UserRecord {
    const user = firm.users.get(userId);
    if (user === undefined)
      throw new CommandRefusal(404, 'user_not_found', `user_id: user ${userId} is unknown`, [
        { field: 'user_id', message: `user ${userId} is unknown` },
      ]);
    return user;
  }

  private userByEmail(firm: FirmState, email: string): UserRecord | undefined {
    const userId = firm.userIdByEmail.get(email);
    return userId === undefined ? undefined : firm.users.get(userId);
  }

  private createUser(
    firm: FirmState,
    person: NewTrader,
    newId: () => string,
    nowMs: number,
    kind: UserRecord['kind'],
  ): UserRecord {
    const userId = newId();
    if (this.userInFirm(undefined, userId) !== undefined) throw new Error(`id generator repeated user id ${userId}`);
    const user: UserRecord = Object.freeze({
      userId,
      firmId: firm.firmId,
      email: person.email,
      kind,
      ...(person.firstName === undefined ? {} : { firstName: person.firstName }),
      ...(person.lastName === undefined ? {} : { lastName: person.lastName }),
      ...(person.externalId === undefined ? {} : { externalId: person.externalId }),
      createdAtMs: nowMs,
    });
    firm.users.set(userId, user);
    firm.userIdByEmail.set(user.email, userId);
    return user;
  }

  private store(firm: FirmState, record: AccountRecord): AccountRecord {
    if (this.accounts.has(record.accountId)) throw new Error(`id generator repeated account id ${record.accountId}`);
    this.accounts.set(record.accountId, record);
    this.accountList.push(record);
    firm.accountIds.push(record.accountId);
    return record;
  }
}

declareSnapshot(Provisioning, {
  kept: ['firms', 'accounts', 'accountList'],
  skipped: [],
});

function newAccount(
  firm: FirmState,
  user: UserRecord,
  request: ProvisioningRequest,
  template: PlanTemplate,
  plan: PlanTemplate,
  pricePaidCents: number,
  newId: () => string,
  nowMs: number,
  seq: number,
): AccountRecord {
  return {
    seq,
    accountId: newId(),
    firmId: firm.firmId,
    userId: user.userId,
    planReference: request.planReference,
    template,
    plan,
    overlay: request.overlay,
    pricePaidCents,
    ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
    createdAtMs: nowMs,
  };
}

function unknownPlan(firm: FirmState, planReference: string): CommandRefusal {
  const known = [...firm.plans.keys()];
  const expected = known.length === 0 ? 'this firm has no plans' : `expected one of ${known.join(', ')}`;
  const message = `no plan ${JSON.stringify(planReference)} in this firm; ${expected}`;
  return invalidRequest([{ field: 'plan_reference', message }]);
}
