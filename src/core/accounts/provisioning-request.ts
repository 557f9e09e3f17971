// The body of POST /v1/firm-control/accounts (docs/risk-rules.md#provisioning), validated. The shape propsim
// accepts:
//
//   {
//     "plan_reference": "eval-50k",                      required; the firm's plan slug
//     "user": { "email": "a@b.io", "first_name": "Ann",  the trader: email required (stored lowercase); first_name,
//               "last_name": "Lee", "external_id": "42" } last_name and the firm's own external_id optional
//     "user_id": "…",                                    … or an existing user of the firm (exactly one of user /
// user_id)
//     "count": 3,                                        optional integer 1–100, default 1 (a bulk create)
//     "idempotency_key": "order-1234",                   optional string of 1–128 characters (the purchase id)
//     "price_paid": "100.00",                            optional decimal string ≥ 0, default "0.00"; split across
// `count`
//     "initial_balance": "50000.00", "currency": "USD",  optional overlays (plan-overlay.ts)
//     "risk_profile": { "max_drawdown_value": "2500" },  optional partial overlay; null removes an optional field
//                                                        (news takes its events inline: the API reads no file)
//     "passing_criteria": { "profit_target": "3000" },   optional partial overlay; null removes an optional field
//     "position_limits": { "max_contracts": 3 }          optional partial overlay; null removes a field
//   }
//
// The body is first checked against its TypeBox schema (ProvisionAccountsBody: types, required and unknown keys,
// one detail per bad field, the same check the HTTP layer makes), then read here for what a schema cannot say
// (user or user_id, the overlay's sign and consistency rules). Every error is a 400 `invalid_request` whose
// message starts with the field path (`risk_profile.max_drawdown_mode: expected one of …`). Pure.
import { Type } from 'typebox';
import {
  at,
  checkKeys,
  fail,
  FieldError,
  readFields,
  readInteger,
  readString,
  required,
} from '../validation/input-fields.js';
import { OVERLAY_KEYS, parseProvisioningOverlay, type ProvisioningOverlay } from './plan-overlay.js';
import { invalidRequest, type CommandRefusal } from '../outcome.js';
import { parseBody } from '../validation/request-body.js';
import { Id, MoneyInput, Nullable } from '../shapes/common.js';
import { DrawdownModeShape } from '../shapes/account.js';

export const MAX_ACCOUNTS_PER_REQUEST = 100;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;
export const MAX_PLAN_REFERENCE_LENGTH = 128;
export const MAX_USER_ID_LENGTH = 128;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 200;

const OWN_KEYS = ['plan_reference', 'user', 'user_id', 'count', 'idempotency_key'] as const;
export const PROVISIONING_KEYS: readonly string[] = [...OWN_KEYS, ...OVERLAY_KEYS];
const USER_KEYS = ['email', 'first_name', 'last_name', 'external_id'] as const;

const Name = Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH });

/** risk_profile.scaling (docs/risk-rules.md#scaling-plan); the plan's own rules (ascending tiers) are checked after. */
const ScalingInput = Type.Array(
  Type.Object(
    { from_profit: MoneyInput, max_contracts: Type.Integer({ minimum: 1 }) },
    { additionalProperties: false },
  ),
  { minItems: 1, description: 'scaling tiers like [{"from_profit": "0", "max_contracts": 3}]' },
);

/** position_limits (docs/risk-rules.md#position-limits); a root outside the catalog is refused after, by name. */
const PositionLimitsInput = Type.Object(
  {
    max_contracts: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'an integer ≥ 1' }))),
    max_contracts_per_root: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.Integer({ minimum: 1 }), {
          description: 'instrument roots to contract limits, like {"ES": 5, "NQ": 2}',
        }),
      ),
    ),
    micro_ratio: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 1000, description: 'an integer from 1 to 1000' })),
    ),
  },
  { additionalProperties: false },
);

/** risk_profile.news (docs/risk-rules.md#news-blackouts): the events inline; the API reads no file. */
const NewsInput = Type.Object(
  {
    events: Type.Optional(
      Type.Array(
        Type.Object(
          {
            time: Type.Union([Type.String(), Type.Integer()], {
              description: 'ISO 8601 with an offset or Z, or Unix ms',
            }),
            roots: Type.Optional(Type.Array(Type.String(), { description: 'instrument roots like ["ES", "NQ"]' })),
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
        { description: 'news events like [{"time": "2026-03-11T07:30:00-05:00", "roots": ["ES"], "name": "CPI"}]' },
      ),
    ),
    before_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440 })),
    after_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440 })),
    action: Type.Optional(Type.Union([Type.Literal('no_entry'), Type.Literal('flatten'), Type.Literal('fail')])),
  },
  { additionalProperties: false },
);

/** POST /v1/firm-control/accounts (docs/api.md#shapes): the trader, the plan and the optional overlays. */
export const ProvisionAccountsBody = Type.Object(
  {
    user: Type.Optional(
      Type.Object(
        {
          email: Type.String({
            maxLength: MAX_EMAIL_LENGTH,
            description: 'an email address like "trader@example.com"',
          }),
          first_name: Type.Optional(Name),
          last_name: Type.Optional(Name),
          external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        },
        { additionalProperties: false },
      ),
    ),
    user_id: Type.Optional(Id),
    plan_reference: Type.String({ minLength: 1, maxLength: MAX_PLAN_REFERENCE_LENGTH }),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ACCOUNTS_PER_REQUEST })),
    idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH })),
    price_paid: Type.Optional(MoneyInput),
    initial_balance: Type.Optional(MoneyInput),
    currency: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'a three-letter currency code like "USD"' }),
    ),
    risk_profile: Type.Optional(
      Type.Object(
        {
          max_drawdown_mode: Type.Optional(DrawdownModeShape),
          max_drawdown_value: Type.Optional(MoneyInput),
          max_drawdown_limit: Type.Optional(Nullable(MoneyInput)),
          daily_loss_value: Type.Optional(Nullable(MoneyInput)),
          daily_loss_action: Type.Optional(Nullable(Type.Union([Type.Literal('lock'), Type.Literal('fail')]))),
          scaling: Type.Optional(Nullable(ScalingInput)),
          flat_by: Type.Optional(
            Nullable(
              Type.String({
                pattern: '^(0[0-9]|1[0-5]):[0-5][0-9]$',
                description: 'an exchange time "HH:MM" from "00:00" to "15:59"',
              }),
            ),
          ),
          flat_by_action: Type.Optional(Nullable(Type.Union([Type.Literal('flatten'), Type.Literal('fail')]))),
          hold_over_weekend: Type.Optional(Nullable(Type.Boolean())),
          news: Type.Optional(Nullable(NewsInput)),
        },
        { additionalProperties: false },
      ),
    ),
    passing_criteria: Type.Optional(
      Type.Object(
        {
          profit_target: Type.Optional(MoneyInput),
          min_trading_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }))),
          consistency_pct: Type.Optional(
            Nullable(
              Type.String({ pattern: '^\\d+(\\.\\d+)?$', description: 'a percentage as a decimal string like "40"' }),
            ),
          ),
          time_limit_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }))),
        },
        { additionalProperties: false },
      ),
    ),
    position_limits: Type.Optional(PositionLimitsInput),
  },
  { additionalProperties: false },
);

/** Who the accounts are for: a trader named by email (created if new) or an existing user by id. */
export type TraderIdentity = NewTrader | { readonly kind: 'user_id'; readonly userId: string };

/** A trader named by email: the firm's user with that email, or a new one. */
export interface NewTrader {
  readonly kind: 'email';
  /** Lowercase. */
  readonly email: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly externalId?: string;
}

export interface ProvisioningRequest {
  readonly planReference: string;
  readonly trader: TraderIdentity;
  /** Accounts to create, 1–100. */
  readonly count: number;
  readonly idempotencyKey?: string;
  /** The whole purchase amount (0 when absent); the accounts share it (splitCents). */
  readonly pricePaidCents: number;
  /** The plan overlays only (initial_balance, currency, risk_profile, passing_criteria, position_limits); no price. */
  readonly overlay: ProvisioningOverlay;
}

/** A 400 `invalid_request` refusal from a FieldError: the message names the field, details carry it. */
export function fieldErrorRefusal(error: FieldError): CommandRefusal {
  return invalidRequest([{ field: error.path === '' ? 'body' : error.path, message: error.detail }]);
}

/** Runs `fn`, turning a FieldError into a 400 `invalid_request` refusal. */
export function refuseFieldErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof FieldError) throw fieldErrorRefusal(error);
    throw error;
  }
}

/** Validates a decoded request body; throws a 400 `invalid_request` CommandRefusal naming the field. */
export function parseProvisioningRequest(body: unknown): ProvisioningRequest {
  parseBody(ProvisionAccountsBody, body);
  return refuseFieldErrors(() => readRequest(body));
}

function readRequest(body: unknown): ProvisioningRequest {
  const doc = readFields(body, 'body', 'a JSON object with plan_reference and user or user_id');
  checkKeys(doc, '', PROVISIONING_KEYS);
  const planReference = readString(
    required(doc.plan_reference, 'plan_reference', 'a plan reference string'),
    'plan_reference',
    {
      maxLength: MAX_PLAN_REFERENCE_LENGTH,
    },
  );
  const trader = readTrader(doc.user, doc.user_id);
  const count =
    doc.count === undefined ? 1 : readInteger(doc.count, 'count', { min: 1, max: MAX_ACCOUNTS_PER_REQUEST });
  const idempotencyKey =
    doc.idempotency_key === undefined
      ? undefined
      : readString(doc.idempotency_key, 'idempotency_key', { maxLength: MAX_IDEMPOTENCY_KEY_LENGTH });
  const { pricePaidCents, ...overlay } = parseProvisioningOverlay(doc, '', OWN_KEYS);
  return {
    planReference,
    trader,
    count,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    pricePaidCents: pricePaidCents ?? 0,
    overlay: freezeOverlay(overlay),
  };
}

function readTrader(user: unknown, userId: unknown): TraderIdentity {
  if (user !== undefined && userId !== undefined) {
    throw new FieldError(
      'user_id',
      'give either user (a new or known trader by email) or user_id (an existing user), not both',
    );
  }
  if (userId !== undefined)
    return { kind: 'user_id', userId: readString(userId, 'user_id', { maxLength: MAX_USER_ID_LENGTH }) };
  if (user === undefined) fail('user', 'a mapping with email, or user_id of an existing user (required)', user);
  const doc = readFields(user, 'user', 'a mapping with email and optional first_name, last_name, external_id');
  checkKeys(doc, 'user', USER_KEYS);
  const email = readEmail(required(doc.email, at('user', 'email'), 'an email address'), at('user', 'email'));
  const optional = (key: 'first_name' | 'last_name' | 'external_id', maxLength: number) =>
    doc[key] === undefined ? undefined : readString(doc[key], at('user', key), { maxLength });
  const firstName = optional('first_name', MAX_NAME_LENGTH);
  const lastName = optional('last_name', MAX_NAME_LENGTH);
  const externalId = optional('external_id', 128);
  return {
    kind: 'email',
    email,
    ...(firstName === undefined ? {} : { firstName }),
    ...(lastName === undefined ? {} : { lastName }),
    ...(externalId === undefined ? {} : { externalId }),
  };
}

/** An email address (something@domain, no whitespace, at most 254 characters), normalised to lowercase. */
export function readEmail(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+$/.test(value)) {
    fail(path, `an email address like "trader@example.com" of at most ${MAX_EMAIL_LENGTH} characters`, value);
  }
  return value.toLowerCase();
}

/** Overlays are kept on account records and reused by replace: freeze them so no caller edits them. */
function freezeOverlay(overlay: ProvisioningOverlay): ProvisioningOverlay {
  if (overlay.riskProfile) Object.freeze(overlay.riskProfile);
  if (overlay.passingCriteria) Object.freeze(overlay.passingCriteria);
  return Object.freeze(overlay);
}
