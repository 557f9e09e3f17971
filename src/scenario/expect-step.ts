// Validation of `expect` steps: exactly one subject (account, order or position) and the fields to check,
// each from the subject's list (docs/scenarios.md#expect) with a value of the field's type, or null for
// "absent".
// Values are kept as written; decimal strings compare by value at run time.
import {
  FieldError,
  at,
  fail,
  readBoolean,
  readDecimal,
  readEnum,
  readFields,
  readInteger,
  readString,
  type Fields,
} from '../core/validation/input-fields.js';
import { FAILURE_RULES } from '../core/accounts/failure-rules.js';
import { MAX_DRAWDOWN_MODES } from '../core/accounts/plans.js';
import { readSymbol, readTimeMs } from './scenario-fields.js';
import type { ExpectCheck, ExpectSubject, ExpectStep } from './scenario-types.js';
import { readAccount, readPlacedRef, stepBody, type StepContext, type StepInput } from './step-context.js';

export type ValueType = 'decimal' | 'integer' | 'boolean' | 'string' | 'time' | readonly string[];

/** Decimal places allowed in an expected decimal (averages can have more places than prices). */
const EXPECT_MAX_PLACES = 12;

export const ACCOUNT_STATUSES = ['active', 'failed', 'passed', 'closed'] as const;
export const LOCKOUT_REASONS = [
  'firm_lockout',
  'daily_loss_breach',
  'max_loss_breach',
  'evaluation_passed',
  'account_replaced',
  'evaluation_failed',
  'flat_by',
] as const;
export const ORDER_STATUSES = ['SUBMITTED', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED'] as const;

/** Live risk state item + balance object + account_status and failed_rule (docs/risk-rules.md#the-risk-state-item). */
export const ACCOUNT_EXPECT_FIELDS: Readonly<Record<string, ValueType>> = {
  account_id: 'string',
  max_drawdown_mode: MAX_DRAWDOWN_MODES,
  max_drawdown_value: 'decimal',
  max_drawdown_limit: 'decimal',
  max_drawdown_lock_ceiling: 'decimal',
  starting_balance: 'decimal',
  balance: 'decimal',
  equity: 'decimal',
  highest_realized_balance: 'decimal',
  max_loss_limit_trigger: 'decimal',
  daily_loss_limit_trigger: 'decimal',
  is_locked: 'boolean',
  lockout_reason: LOCKOUT_REASONS,
  user_risk_halt: 'boolean',
  updated_at: 'time',
  start_of_day_balance: 'decimal',
  realized_day_pnl: 'decimal',
  realized_week_pnl: 'decimal',
  account_status: ACCOUNT_STATUSES,
  max_contracts_now: 'integer',
  scaling_profit: 'decimal',
  failed_rule: FAILURE_RULES,
};

export const ORDER_EXPECT_FIELDS: Readonly<Record<string, ValueType>> = {
  status: ORDER_STATUSES,
  quantity: 'integer',
  filled_quantity: 'integer',
  average_fill_price: 'decimal',
  limit_price: 'decimal',
  stop_price: 'decimal',
  /** A REJECTED order's error code (`scaling_limit_exceeded`); null while it has none. */
  error_code: 'string',
  /** The reason of the order's latest status record: a CANCELLED order's (`flat_by`, `news_blackout`, `cancel_all`). */
  status_reason: 'string',
};

export const POSITION_EXPECT_FIELDS: Readonly<Record<string, ValueType>> = {
  net_quantity: 'integer',
  average_price: 'decimal',
  realized_pnl: 'decimal',
  unrealized_pnl: 'decimal',
};

const FIELDS_BY_SUBJECT = {
  account: ACCOUNT_EXPECT_FIELDS,
  order: ORDER_EXPECT_FIELDS,
  position: POSITION_EXPECT_FIELDS,
};
const SUBJECT_KEYS = ['account', 'order', 'position'] as const;

export function parseExpect(raw: unknown, s: StepInput): ExpectStep {
  const p = s.path;
  const doc = readFields(raw, p, 'a mapping with one subject (account, order or position) and the fields to check');
  const subjects = SUBJECT_KEYS.filter((key) => doc[key] !== undefined);
  const [kind] = subjects;
  if (kind === undefined || subjects.length > 1) {
    throw new FieldError(
      p,
      `expected exactly one subject (account, order or position), got ${subjects.length === 0 ? 'none' : subjects.join(' and ')}`,
    );
  }
  const subject = readSubject(kind, doc[kind], at(p, kind), s.ctx);
  const allowed = FIELDS_BY_SUBJECT[kind];
  const checks: ExpectCheck[] = [];
  for (const [field, value] of Object.entries(doc)) {
    if (field === kind) continue;
    const type = allowed[field];
    if (type === undefined) {
      throw new FieldError(
        at(p, field),
        `unknown field for ${article(kind)} expectation; expected one of ${Object.keys(allowed).join(', ')}`,
      );
    }
    checks.push({ field, expected: readExpected(value, at(p, field), type) });
  }
  if (checks.length === 0)
    throw new FieldError(p, `expected at least one field to check, one of ${Object.keys(allowed).join(', ')}`);
  return { index: s.index, kind: 'expect', timeMs: s.ctx.nowMs, subject, checks };
}

function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function readSubject(
  kind: (typeof SUBJECT_KEYS)[number],
  value: unknown,
  path: string,
  ctx: StepContext,
): ExpectSubject {
  switch (kind) {
    case 'account':
      return { kind, account: readAccount(value, path, ctx) };
    case 'order':
      return { kind, ref: readPlacedRef(value, path, ctx) };
    case 'position': {
      const doc: Fields = stepBody(value, path, ['account', 'instrument']);
      return {
        kind,
        account: readAccount(doc.account, at(path, 'account'), ctx),
        instrument: readSymbol(doc.instrument, at(path, 'instrument')),
      };
    }
  }
}

function readExpected(value: unknown, path: string, type: ValueType): string | number | boolean | null {
  if (value === null) return null;
  if (typeof type !== 'string') return readEnum(value, path, type);
  switch (type) {
    case 'decimal':
      readDecimal(value, path, { maxPlaces: EXPECT_MAX_PLACES, example: '5000.25' });
      return value as string;
    case 'integer':
      return readInteger(value, path);
    case 'boolean':
      return readBoolean(value, path);
    case 'string':
      return readString(value, path);
    case 'time':
      readTimeMs(value, path);
      if (typeof value !== 'string' && typeof value !== 'number') return fail(path, 'a time', value);
      return value;
  }
}
