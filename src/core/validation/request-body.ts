// A request body read through its TypeBox schema (docs/architecture.md#one-schema-source): the typed value, or a
// 400 `invalid_request` naming every bad field. Checkers are compiled once per schema.
import type { Static, TSchema } from 'typebox';
import { bodyCheck, type BodyCheck } from './body-check.js';
import { invalidRequest } from '../outcome.js';

const checks = new WeakMap<TSchema, BodyCheck<TSchema>>();

export function checkerOf<S extends TSchema>(schema: S): BodyCheck<S> {
  let check = checks.get(schema) as BodyCheck<S> | undefined;
  if (!check) {
    check = bodyCheck(schema);
    checks.set(schema, check as unknown as BodyCheck<TSchema>);
  }
  return check;
}

/** `body` checked against `schema`; an absent body reads as `{}` when `absentIsEmpty` (bodies with no required field). */
export function parseBody<S extends TSchema>(schema: S, body: unknown, absentIsEmpty = false): Static<S> {
  const result = checkerOf(schema).parse(body === undefined && absentIsEmpty ? {} : body);
  if (!result.ok) throw invalidRequest(result.problems);
  return result.value;
}
