// The steps of a scenario file (docs/scenarios.md#steps) as TypeBox schemas, for schemas/scenario.json: each step is
// a mapping with one step key, plus expect_status on the steps that answer with a status. The step readers
// (parse-steps.ts and its helpers) check each step's body as they walk the steps in order, because most of what they
// check depends on the steps before (refs placed, the clock, the aliases).
import { Type, type TSchema } from 'typebox';
import { DecimalText, Flag, Int, Mapping, Money, OneOf, Text } from '../core/file-fields.js';
import { DrawdownMode } from '../core/accounts/plan-schema.js';
import { ACCOUNT_STATUSES, LOCKOUT_REASONS, ORDER_STATUSES } from './expect-step.js';
import { INPUT_TYPES } from './input-step.js';
import { REASON_CODE_MAX_LENGTH } from './firm-control-steps.js';
import { FIRM_CONTROL_KINDS, HTTP_STATUSES, type FirmControlKind } from './scenario-types.js';

/** A time as users write it: ISO 8601 with an offset or Z, or Unix milliseconds. */
export const Time = Type.Union([Type.String(), Type.Integer()], {
  expected: 'a time',
  description: 'An ISO 8601 time with an offset or Z (2026-03-02T09:30:00-06:00), or Unix milliseconds.',
});

const Duration = Type.String({
  pattern: '^[0-9]+(ms|s|m|h|d)$',
  expected: 'a duration like 250ms, 15s, 30m, 2h or 1d',
});
const Name = (what: string) =>
  Type.String({ pattern: '^\\S(.*\\S)?$', expected: `${what}: a non-empty string without surrounding spaces` });
const Account = Name('an account alias');
const Ref = Name('an order ref');
const Symbol = Text({ expected: 'a GLOBEX symbol like ESM6 or a bare root like ES' });
const Price = DecimalText({ places: 9, example: '5000.25' });
const Quantity = Int({ minimum: 1 });
const Side = OneOf(['buy', 'sell'] as const);
const ReasonCode = Text({ maxLength: REASON_CODE_MAX_LENGTH, description: 'Why, in a short code the firm chooses.' });
const Status = Type.Unsafe<number>({
  enum: [...HTTP_STATUSES],
  description: 'The HTTP status the step must answer (order, modify, cancel, oco and firm-control steps only).',
});

function step(kind: string, body: TSchema, description: string, withStatus = false): TSchema {
  return Type.Object(
    { [kind]: body, ...(withStatus ? { expect_status: Type.Optional(Status) } : {}) },
    { additionalProperties: false, description },
  );
}

const Order = Mapping({
  ref: Ref,
  account: Account,
  instrument: Symbol,
  side: Side,
  quantity: Quantity,
  type: OneOf(['market', 'limit', 'stop', 'stop_limit'] as const),
  limit_price: Type.Optional(Price),
  stop_price: Type.Optional(Price),
  tif: Type.Optional(OneOf(['day', 'gtc', 'ioc', 'fok'] as const, 'Time in force; default day.')),
  expect_status: Type.Optional(Status),
});

/** Each firm-control step's keys as checked without expect_status (with it, only the keys are: the API judges). */
const FIRM_CONTROL_BODIES: Record<FirmControlKind, Record<string, TSchema>> = {
  lockout: { reason_code: Type.Optional(ReasonCode), flatten: Type.Optional(Flag('Flatten first; default false.')) },
  unlock: {},
  flatten: {},
  adjust: {
    amount: Money('non_zero', 'Added to the balance (negative: taken).'),
    reason_code: Type.Optional(ReasonCode),
    shift_floors: Type.Optional(Flag('Move the floors by the same amount; default true.')),
  },
  daily_loss_trigger: { daily_loss_limit_trigger: Money('any'), reason_code: ReasonCode },
  reanchor: { reason_code: ReasonCode },
  max_loss_limit: { max_drawdown_limit: Type.Union([Money('non_negative'), Type.Null()]) },
};

function firmControlStep(kind: FirmControlKind): TSchema {
  const fields = FIRM_CONTROL_BODIES[kind];
  const checked = Mapping({ account: Account, ...fields });
  const loose = Mapping({
    account: Type.String(),
    ...Object.fromEntries(Object.keys(fields).map((key) => [key, Type.Optional(Type.Unknown())])),
    expect_status: Type.Optional(Status),
  });
  return Type.Union([
    step(kind, checked, `The firm-control operation ${kind} (docs/scenarios.md#steps).`),
    Type.Object(
      { [kind]: loose, expect_status: Type.Optional(Status) },
      { additionalProperties: false, description: `${kind} with expect_status: its values go to the API as written.` },
    ),
  ]);
}

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const Decimal12 = DecimalText({ places: 12, example: '5000.25' });
const ExpectTime = Type.Union([Type.String(), Type.Integer()]);

const ACCOUNT_FIELDS: Record<string, TSchema> = {
  account_id: Text(),
  max_drawdown_mode: DrawdownMode,
  max_drawdown_value: Decimal12,
  max_drawdown_limit: Decimal12,
  max_drawdown_lock_ceiling: Decimal12,
  starting_balance: Decimal12,
  balance: Decimal12,
  equity: Decimal12,
  highest_realized_balance: Decimal12,
  max_loss_limit_trigger: Decimal12,
  daily_loss_limit_trigger: Decimal12,
  is_locked: Flag(),
  lockout_reason: OneOf(LOCKOUT_REASONS),
  user_risk_halt: Flag(),
  updated_at: ExpectTime,
  start_of_day_balance: Decimal12,
  realized_day_pnl: Decimal12,
  realized_week_pnl: Decimal12,
  account_status: OneOf(ACCOUNT_STATUSES),
};
const ORDER_FIELDS: Record<string, TSchema> = {
  status: OneOf(ORDER_STATUSES),
  quantity: Int(),
  filled_quantity: Int(),
  average_fill_price: Decimal12,
  limit_price: Decimal12,
  stop_price: Decimal12,
};
const POSITION_FIELDS: Record<string, TSchema> = {
  net_quantity: Int(),
  average_price: Decimal12,
  realized_pnl: Decimal12,
  unrealized_pnl: Decimal12,
};

function expectation(subject: string, subjectSchema: TSchema, fields: Record<string, TSchema>): TSchema {
  const checks = Object.fromEntries(
    Object.entries(fields).map(([key, schema]) => [key, Type.Optional(Nullable(schema))]),
  );
  return Type.Object(
    { [subject]: subjectSchema, ...checks },
    { additionalProperties: false, minProperties: 2, description: `Fields of ${subject} to check; null: absent.` },
  );
}

const Expect = Type.Union([
  expectation('account', Account, ACCOUNT_FIELDS),
  expectation('order', Ref, ORDER_FIELDS),
  expectation('position', Mapping({ account: Account, instrument: Symbol }), POSITION_FIELDS),
]);

/** One step of a scenario: exactly one step key. */
export const StepFile = Type.Union([
  step('at', Time, 'Moves the clock to this time (never back).'),
  step('advance', Duration, 'Moves the clock on by this much.'),
  step(
    'tick',
    Mapping({ instrument: Symbol, price: Price, size: Type.Optional(Quantity) }),
    'A market print on the tick grid.',
  ),
  step(
    'fill',
    Mapping({
      account: Account,
      instrument: Symbol,
      side: Side,
      quantity: Quantity,
      price: Price,
      at: Type.Optional(Time),
    }),
    'A historical execution recorded on an account.',
  ),
  step('order', Order, 'Places an order.', true),
  step(
    'modify',
    Mapping({
      ref: Ref,
      quantity: Type.Optional(Quantity),
      limit_price: Type.Optional(Price),
      stop_price: Type.Optional(Price),
      expect_status: Type.Optional(Status),
    }),
    'Modifies an order placed by an earlier step.',
    true,
  ),
  step('cancel', Mapping({ ref: Ref, expect_status: Type.Optional(Status) }), 'Cancels an order.', true),
  step(
    'oco',
    Mapping({ group: Name('an OCO group name'), orders: Type.Array(Ref), expect_status: Type.Optional(Status) }),
    'Links orders into a one-cancels-other group, or adds one to a group.',
    true,
  ),
  ...FIRM_CONTROL_KINDS.map(firmControlStep),
  step('expect', Expect, 'Checks an account, an order or a position now.'),
  step(
    'input',
    Mapping({
      time_ms: Int({}, 'Unix milliseconds'),
      type: OneOf(INPUT_TYPES as readonly string[]),
      data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
    'One kernel input as a journal records it (docs/scenarios.md#input-steps).',
  ),
]);
