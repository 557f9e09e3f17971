// Reading fields of an already-decoded YAML/JSON document (plans, overlays, scenario steps). Each reader
// checks one value and, when it is wrong, throws a FieldError whose path names the field
// (`plans.eval-50k.risk_profile.max_drawdown_mode`) and whose detail says what was expected and what came.
// Pure: no I/O.
import { Dec, DecimalInputError, decimalToCents, parseDecimal } from '../money.js';

/** A decoded mapping (YAML mapping or JSON object). */
export type Fields = Readonly<Record<string, unknown>>;

/** A field of a decoded document that does not hold what it should. `path` is '' for the whole document. */
export class FieldError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(path === '' ? detail : `${path}: ${detail}`);
    this.name = 'FieldError';
  }
}

/** `base` + a key or list index: at('plans', 'eval-50k') = 'plans.eval-50k', at('steps', 4) = 'steps[4]'. */
export function at(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base === '' ? key : `${base}.${key}`;
}

/** How a decoded value reads in a message: strings quoted, numbers called numbers. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return `the number ${String(value)}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') return 'a mapping';
  return typeof value;
}

/** Throws `path: expected EXPECTED, got VALUE`. */
export function fail(path: string, expected: string, received: unknown): never {
  throw new FieldError(path, `expected ${expected}, got ${describeValue(received)}`);
}

export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export function readFields(value: unknown, path: string, expected: string): Fields {
  if (!isFields(value)) fail(path, expected, value);
  return value;
}

/** Refuses keys outside `allowed`, naming the first unknown one and listing the allowed ones. */
export function checkKeys(fields: Fields, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(fields)) {
    if (!allowed.includes(key)) {
      throw new FieldError(at(path, key), `unknown key; expected one of ${allowed.join(', ')}`);
    }
  }
}

/** Refuses a missing (undefined) required field. */
export function required(value: unknown, path: string, expected: string): unknown {
  if (value === undefined) fail(path, `${expected} (required)`, value);
  return value;
}

export function readString(value: unknown, path: string, rules: { maxLength?: number } = {}): string {
  const max = rules.maxLength;
  const expected = max === undefined ? 'a non-empty string' : `a string of 1 to ${max} characters`;
  if (typeof value !== 'string' || value === '' || (max !== undefined && value.length > max))
    fail(path, expected, value);
  return value;
}

export function readBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'true or false', value);
  return value;
}

export function readEnum<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(path, `one of ${allowed.join(', ')}`, value);
  }
  return value as T;
}

export function readInteger(value: unknown, path: string, rules: { min?: number; max?: number } = {}): number {
  const { min, max } = rules;
  const range =
    min !== undefined && max !== undefined
      ? ` from ${min} to ${max}`
      : min !== undefined
        ? ` ≥ ${min}`
        : max !== undefined
          ? ` ≤ ${max}`
          : '';
  const ok =
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    (min === undefined || value >= min) &&
    (max === undefined || value <= max);
  if (!ok) fail(path, `an integer${range}`, value);
  return value as number;
}

export type DecimalSign = 'any' | 'positive' | 'non_negative' | 'non_zero';

/** How each sign reads in a message: `a decimal string greater than zero`. */
export const SIGN_WORDS: Record<DecimalSign, string> = {
  any: '',
  positive: ' greater than zero',
  non_negative: ' zero or more',
  non_zero: ' other than zero',
};

/**
 * Reads an exact decimal string with at most `maxPlaces` places (default 2) and the given sign. A number is
 * refused with a hint to quote it: YAML reads 50000.10 unquoted as a binary float. `example` shows the
 * expected form in messages (default "50000.00").
 */
export function readDecimal(
  value: unknown,
  path: string,
  rules: { maxPlaces?: number; sign?: DecimalSign; example?: string } = {},
): Dec {
  const sign = rules.sign ?? 'any';
  const maxPlaces = rules.maxPlaces ?? 2;
  const expected = `a decimal string${SIGN_WORDS[sign]} with at most ${maxPlaces} decimal places, like "${rules.example ?? '50000.00'}"`;
  let parsed: Dec;
  try {
    parsed = parseDecimal(value, path, { maxPlaces });
  } catch (error) {
    if (!(error instanceof DecimalInputError)) throw error;
    const hint = typeof value === 'number' && Number.isFinite(value) ? ` (quote it: "${String(value)}")` : '';
    throw new FieldError(path, `expected ${expected}, got ${describeValue(value)}${hint}`);
  }
  const wrongSign =
    (sign === 'positive' && !parsed.greaterThan(0)) ||
    (sign === 'non_negative' && parsed.isNegative() && !parsed.isZero()) ||
    (sign === 'non_zero' && parsed.isZero());
  if (wrongSign) fail(path, `a decimal string${SIGN_WORDS[sign]}`, value);
  return parsed;
}

/** Reads a list, checking each element with `read`. */
export function readList<T>(
  value: unknown,
  path: string,
  read: (item: unknown, itemPath: string) => T,
  rules: { minLength?: number } = {},
): T[] {
  const min = rules.minLength ?? 0;
  if (!Array.isArray(value) || value.length < min) fail(path, min > 0 ? `a list of at least ${min}` : 'a list', value);
  return value.map((item: unknown, i: number) => read(item, at(path, i)));
}

/** A money string its schema already checked (file-fields.ts Money), as integer cents; refuses 2^53 cents and up. */
export function toCents(text: string, path: string): number {
  try {
    return decimalToCents(new Dec(text), path);
  } catch (error) {
    if (error instanceof DecimalInputError) fail(path, error.expected, text);
    throw error;
  }
}
