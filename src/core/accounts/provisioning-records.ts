// What the provisioning registry keeps and answers (docs/risk-rules.md#provisioning): firms, their users, one record
// per evaluation account (who it belongs to, which plan it was minted from), and the answers of a create and a replace.
import type { ProvisioningOverlay } from './plan-overlay.js';
import type { PlanTemplate } from './plans.js';

export interface UserRecord {
  readonly userId: string;
  readonly firmId: string;
  /** Lowercase. */
  readonly email: string;
  /** A trader made by provisioning, or a staff member of the firm (the sandbox seed). */
  readonly kind: 'trader' | 'staff';
  readonly firstName?: string;
  readonly lastName?: string;
  readonly externalId?: string;
  readonly createdAtMs: number;
}

export interface FirmRecord {
  readonly firmId: string;
  readonly slug: string;
  readonly name: string;
}

export interface AccountRecord {
  readonly accountId: string;
  /** Creation order among all provisioned accounts: lists page by it. */
  readonly seq: number;
  readonly firmId: string;
  readonly userId: string;
  readonly planReference: string;
  /** The firm's shared (frozen) template the account was minted from; replace mints from it again. */
  readonly template: PlanTemplate;
  /**
   * The account's own plan: the template with the overlays applied, always a fresh object. A per-account
   * change (max-loss-limit PATCH) assigns a new plan here; the shared template is never touched.
   */
  plan: PlanTemplate;
  /** The plan overlays the account was provisioned with (no price), kept for replace. */
  readonly overlay: ProvisioningOverlay;
  /** This account's share of price_paid. */
  readonly pricePaidCents: number;
  readonly idempotencyKey?: string;
  readonly createdAtMs: number;
  readonly replacesAccountId?: string;
  replacedByAccountId?: string;
}

export interface ProvisionResult {
  /** 201 when accounts were created, 200 when an idempotency key repeated (the original accounts). */
  readonly status: 200 | 201;
  readonly user: UserRecord;
  readonly accounts: readonly AccountRecord[];
}

export interface ReplaceResult {
  readonly original: AccountRecord;
  readonly replacement: AccountRecord;
}

export interface AccountQuery {
  readonly user_id?: string;
  readonly idempotency_key?: string;
}
