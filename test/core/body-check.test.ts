import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { bodyCheck, problemText } from '../../src/core/validation/body-check.js';

const Body = Type.Object(
  {
    email: Type.String({ format: 'email' }),
    quantity: Type.Integer({ minimum: 1 }),
    side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 8 })),
    cap: Type.Optional(Type.Union([Type.String({ description: 'a decimal string' }), Type.Null()])),
    ids: Type.Optional(Type.Array(Type.Integer(), { minItems: 2 })),
    user: Type.Optional(Type.Object({ name: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
const check = bodyCheck(Body);
const valid = { email: 'a@b.example', quantity: 1, side: 'buy' };

describe('bodyCheck', () => {
  it('accepts a valid body and returns it typed', () => {
    expect(check.parse(valid)).toEqual({ ok: true, value: valid });
  });

  it('names a wrong value with what was expected and what came', () => {
    expect(check.problems({ ...valid, quantity: 0 })).toEqual([
      { field: 'quantity', message: 'expected an integer of at least 1, got 0' },
    ]);
  });

  it('gives one problem for a union field, not one per branch', () => {
    expect(check.problems({ ...valid, side: 'hold' })).toEqual([
      { field: 'side', message: 'expected one of buy, sell, got "hold"' },
    ]);
  });

  it('says a required field is missing', () => {
    expect(check.problems({ quantity: 1, side: 'sell' })).toEqual([
      { field: 'email', message: 'expected an email address (required), got nothing' },
    ]);
  });

  it('lists the allowed fields for an unknown one', () => {
    const [problem] = check.problems({ ...valid, colour: 'red' });
    expect(problem).toEqual({
      field: 'colour',
      message: 'unknown field; expected one of email, quantity, side, note, cap, ids, user',
    });
  });

  it('names nested and array members by path', () => {
    expect(check.problems({ ...valid, ids: [1, 'x'], user: { name: 3 } })).toEqual([
      { field: 'ids[1]', message: 'expected an integer, got "x"' },
      { field: 'user.name', message: 'expected a string, got 3' },
    ]);
  });

  it('uses the description of a nullable union', () => {
    expect(check.problems({ ...valid, cap: 5 })).toEqual([
      { field: 'cap', message: 'expected a decimal string, or null, got 5' },
    ]);
  });

  it('reports every bad field at once', () => {
    const problems = check.problems({ email: 'nope', quantity: 1.5, side: 'buy', note: '' });
    expect(problems.map((p) => p.field)).toEqual(['email', 'quantity', 'note']);
    expect(problemText(problems)).toContain('note: expected a string of 1 to 8 characters, got ""');
  });

  it('refuses a body that is not an object as `body`', () => {
    expect(check.problems([1])).toEqual([{ field: 'body', message: 'expected a JSON object, got [1]' }]);
    expect(check.problems(undefined)).toEqual([{ field: 'body', message: 'expected a JSON object, got nothing' }]);
  });
});
