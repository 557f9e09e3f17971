// The steps of a scenario file (docs/scenarios.md#steps) as TypeBox schemas: each step is a mapping with one step
// key, plus expect_status on the steps that answer with a status. parse-steps.ts checks each step's body against
// its kind's schema here, then the step readers check what depends on the steps before (refs placed, the clock,
// the aliases) and on the catalog. An `expect` step's fields are declared by expect-step.ts's tables, which its
// reader walks to name the subject in its errors; the schema here is made from them.
import { Type, type TSchema } from 'typebox';
import { TIME_EXPECTED } from '../core/time.js';
import { DecimalText, Flag, Int, Mapping, Money, OneOf, Text } from '../core/validation/file-fields.js';
import { ACCOUNT_EXPECT_FIELDS, ORDER_EXPECT_FIELDS, POSITION_EXPECT_FIELDS, type ValueType } from './expect-step.js';
import { INPUT_TYPES } from './input-step.js';
import { FIRM_CONTROL_KINDS, HTTP_STATUSES, type FirmControlKind, type StepKind } from './scenario-types.js';

/** Longest reason_code, for every operation that takes one (docs/risk-rules.md#firm-controls-and-the-order-gate). */
export const REASON_CODE_MAX_LENGTH = 24;

/** A time as users write it: ISO 8601 with an offset or Z, or Unix milliseconds. */
export const Time = Type.Union([Type.String(), Type.Integer()], {
  expected: TIME_EXPECTED,
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
const ReasonCode = Text({
  maxLength: REASON_CODE_MAX_LENGTH,
  expected: 'a reason code',
  description: 'Why, in a short code the firm chooses.',
});
const Status = Type.Unsafe<number>({
  enum: [...HTTP_STATUSES],
  expected: `an HTTP status, one of ${HTTP_STATUSES.join(', ')}`,
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

function firmControlBody(kind: FirmControlKind): TSchema {
  return Mapping({ account: Account, ...FIRM_CONTROL_BODIES[kind] });
}

/** With expect_status only the keys are checked (and `account` a string): the operation judges the values. */
function looseFirmControlBody(kind: FirmControlKind): TSchema {
  const keys = Object.keys(FIRM_CONTROL_BODIES[kind]);
  return Mapping({
    account: Type.String({ expected: 'an account alias' }),
    ...Object.fromEntries(keys.map((key) => [key, Type.Optional(Type.Unknown())])),
    expect_status: Type.Optional(Status),
  });
}

function firmControlStep(kind: FirmControlKind): TSchema {
  const checked = firmControlBody(kind);
  const loose = looseFirmControlBody(kind);
  return Type.Union([
    step(kind, checked, `The firm-control operation ${kind} (docs/scenarios.md#steps).`),
    Type.Object(
      { [kind]: loose, expect_status: Type.Optional(Status) },
      { additionalProperties: false, description: `${kind} with expect_status: its values go to the API as written.` },
    ),
  ]);
}

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

/** An expected value of a field of expect-step.ts's tables: null for absent. */
function expectedValue(type: ValueType): TSchema {
  if (typeof type !== 'string') return Nullable(OneOf(type));
  switch (type) {
    case 'decimal':
      return Nullable(DecimalText({ places: 12, example: '5000.25' }));
    case 'integer':
      return Nullable(Int());
    case 'boolean':
      return Nullable(Flag());
    case 'string':
      return Nullable(Text());
    case 'time':
      return Nullable(Type.Union([Type.String(), Type.Integer()]));
  }
}

function expectation(subject: string, subjectSchema: TSchema, fields: Readonly<Record<string, ValueType>>): TSchema {
  const checks = Object.fromEntries(
    Object.entries(fields).map(([key, type]) => [key, Type.Optional(expectedValue(type))]),
  );
  return Type.Object(
    { [subject]: subjectSchema, ...checks },
    { additionalProperties: false, minProperties: 2, description: `Fields of ${subject} to check; null: absent.` },
  );
}

const Expect = Type.Union([
  expectation('account', Account, ACCOUNT_EXPECT_FIELDS),
  expectation('order', Ref, ORDER_EXPECT_FIELDS),
  expectation('position', Mapping({ account: Account, instrument: Symbol }), POSITION_EXPECT_FIELDS),
]);

const Tick = Mapping({ instrument: Symbol, price: Price, size: Type.Optional(Quantity) });
const Fill = Mapping({
  account: Account,
  instrument: Symbol,
  side: Side,
  quantity: Quantity,
  price: Price,
  at: Type.Optional(Time),
});
const Modify = Mapping({
  ref: Ref,
  quantity: Type.Optional(Quantity),
  limit_price: Type.Optional(Price),
  stop_price: Type.Optional(Price),
  expect_status: Type.Optional(Status),
});
const Cancel = Mapping({ ref: Ref, expect_status: Type.Optional(Status) });
const Oco = Mapping({
  group: Name('an OCO group name'),
  orders: Type.Array(Ref, { expected: 'a list of order refs' }),
  expect_status: Type.Optional(Status),
});
const Input = Mapping({
  time_ms: Type.Integer({ expected: 'integer Unix milliseconds', description: 'Unix milliseconds' }),
  type: OneOf(INPUT_TYPES as readonly string[]),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { expected: 'a mapping' })),
});

/** The body of each step kind but the firm controls and expect. */
const BODIES: Partial<Record<StepKind, TSchema>> = {
  at: Time,
  advance: Duration,
  tick: Tick,
  fill: Fill,
  order: Order,
  modify: Modify,
  cancel: Cancel,
  oco: Oco,
  input: Input,
};

const stepChecks = new Map<string, TSchema>();

/**
 * The schema a step of `kind` is checked against before its reader runs, as `{ <kind>: body }` (expect_status
 * lifted out): undefined for `expect`, whose reader names the subject in its errors (expect-step.ts).
 */
export function stepCheckOf(kind: StepKind, withStatus: boolean): TSchema | undefined {
  if (kind === 'expect') return undefined;
  const key = `${kind}:${withStatus}`;
  let schema = stepChecks.get(key);
  if (!schema) {
    const firm = (FIRM_CONTROL_KINDS as readonly string[]).includes(kind) ? (kind as FirmControlKind) : undefined;
    const body = firm ? (withStatus ? looseFirmControlBody(firm) : firmControlBody(firm)) : BODIES[kind]!;
    schema = Type.Object({ [kind]: body }, { additionalProperties: false });
    stepChecks.set(key, schema);
  }
  return schema;
}

/** One step of a scenario: exactly one step key. */
export const StepFile = Type.Union([
  step('at', Time, 'Moves the clock to this time (never back).'),
  step('advance', Duration, 'Moves the clock on by this much.'),
  step('tick', Tick, 'A market print on the tick grid.'),
  step('fill', Fill, 'A historical execution recorded on an account.'),
  step('order', Order, 'Places an order.', true),
  step('modify', Modify, 'Modifies an order placed by an earlier step.', true),
  step('cancel', Cancel, 'Cancels an order.', true),
  step('oco', Oco, 'Links orders into a one-cancels-other group, or adds one to a group.', true),
  ...FIRM_CONTROL_KINDS.map(firmControlStep),
  step('expect', Expect, 'Checks an account, an order or a position now.'),
  step('input', Input, 'One kernel input as a journal records it (docs/scenarios.md#input-steps).'),
]);
