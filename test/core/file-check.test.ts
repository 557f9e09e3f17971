// file-check.ts (docs/architecture.md#one-schema-source): a file's schema failure told in the words of the file
// readers, one field at a time, so that moving a reader onto its schema keeps its messages.
import { Type, type TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { FieldError } from '../../src/core/validation/input-fields.js';
import { checkFileValue } from '../../src/core/validation/file-check.js';
import { DecimalText, Int, Mapping, Money, OneOf, Text } from '../../src/core/validation/file-fields.js';

function messageOf(schema: TSchema, value: unknown, path = ''): string {
  try {
    checkFileValue(schema, value, path);
  } catch (error) {
    if (error instanceof FieldError) return error.message;
    throw error;
  }
  throw new Error('expected a FieldError');
}

const Plan = Mapping(
  {
    name: Text(),
    balance: Money('positive'),
    mode: OneOf(['eod', 'intraday'] as const),
    days: Type.Optional(Int({ minimum: 0, maximum: 30 })),
    tags: Type.Optional(
      Type.Array(OneOf(['a', 'b'] as const), {
        minItems: 1,
        uniqueItems: true,
        uniqueExpected: 'a tag not already listed',
      }),
    ),
    plan: Type.Optional(
      Type.Union([Text({ expected: 'a plan name' }), Mapping({ fee: Money('non_negative') })], {
        expected: 'a plan name or a plan mapping',
      }),
    ),
  },
  { expected: 'a plan mapping' },
);
const valid = { name: 'x', balance: '100.00', mode: 'eod' };

describe('file-check: a schema failure in the readers words', () => {
  it('accepts a valid value and returns it as it came', () => {
    expect(checkFileValue(Plan, valid)).toBe(valid);
  });

  it('an unknown key is named, with the keys the mapping takes', () => {
    expect(messageOf(Plan, { ...valid, nmae: 'y' })).toBe(
      'nmae: unknown key; expected one of name, balance, mode, days, tags, plan',
    );
  });

  it('a missing key says what was expected, (required), got nothing', () => {
    const { mode: _mode, ...rest } = valid;
    expect(messageOf(Plan, rest)).toBe('mode: expected one of eod, intraday (required), got nothing');
  });

  it('a value of the wrong kind is told by the schema words; out of range by its range', () => {
    expect(messageOf(Plan, { ...valid, days: 'five' })).toBe('days: expected an integer from 0 to 30, got "five"');
    expect(messageOf(Plan, { ...valid, days: 31 })).toBe('days: expected an integer from 0 to 30, got the number 31');
    expect(messageOf(Plan, { ...valid, tags: [] })).toBe(
      'tags: expected a non-empty list, each one of a, b, got an empty list',
    );
    expect(messageOf(Plan, 'plan')).toBe('expected a plan mapping, got "plan"');
  });

  it('a decimal string: its form, then its sign, each in its own words, and a number gets a hint to quote it', () => {
    expect(messageOf(Plan, { ...valid, balance: '1.001' })).toBe(
      'balance: expected a decimal string greater than zero with at most 2 decimal places, like "50000.00", got "1.001"',
    );
    expect(messageOf(Plan, { ...valid, balance: '0.00' })).toBe(
      'balance: expected a decimal string greater than zero, got "0.00"',
    );
    expect(messageOf(Plan, { ...valid, balance: 100.5 })).toBe(
      'balance: expected a decimal string greater than zero with at most 2 decimal places, like "50000.00", got the number 100.5 (quote it: "100.5")',
    );
    // -0 is zero, so "zero or more" takes it, as money.ts parseDecimal does.
    expect(() => checkFileValue(DecimalText({ sign: 'non_negative' }), '-0.00')).not.toThrow();
    expect(messageOf(DecimalText({ sign: 'non_zero' }), '0')).toBe(
      'expected a decimal string other than zero, got "0"',
    );
  });

  it('a union is explained by the branch of the value kind, else by its own words', () => {
    expect(messageOf(Plan, { ...valid, plan: { fee: '-1' } })).toBe(
      'plan.fee: expected a decimal string zero or more, got "-1"',
    );
    expect(messageOf(Plan, { ...valid, plan: 5 })).toBe(
      'plan: expected a plan name or a plan mapping, got the number 5',
    );
  });

  it('a repeated list item is named by its index', () => {
    expect(messageOf(Plan, { ...valid, tags: ['a', 'b', 'a'] })).toBe(
      'tags[2]: expected a tag not already listed, got "a"',
    );
  });

  it('a wrong value is told before a missing key, and an unknown key before what is inside its mapping', () => {
    expect(messageOf(Plan, { name: 'x', mode: 'sideways' })).toBe(
      'mode: expected one of eod, intraday, got "sideways"',
    );
    expect(messageOf(Plan, { ...valid, plan: { fee: 1, tip: '1' } })).toBe(
      'plan.tip: unknown key; expected one of fee',
    );
  });

  it('prefixes every field with the path given', () => {
    expect(messageOf(Plan, { ...valid, days: -1 }, 'plans.p')).toBe(
      'plans.p.days: expected an integer from 0 to 30, got the number -1',
    );
  });
});
