// The value types of propsim's files as TypeBox schemas (docs/architecture.md#one-schema-source): exact decimal
// strings, integers, enums, mappings. Each carries `expected` (the words file-check.ts puts in an error) and, where
// given, a `description` (the help an editor shows). Decimal strings are checked by pattern here and turned into
// cents or decimals by their readers (input-fields.ts), which only convert.
import { Type, type TSchema } from 'typebox';
import { SIGN_WORDS, type DecimalSign } from './input-fields.js';

/** What each sign allows, as a pattern over a well-formed decimal string. */
const SIGN_PATTERNS: Record<DecimalSign, string | undefined> = {
  any: undefined,
  positive: '^(?!-)(?!0(\\.0+)?$)',
  non_negative: '^(?!-(?!0(\\.0+)?$))',
  non_zero: '^-?(?!0(\\.0+)?$)',
};

export interface DecimalRules {
  /** Most decimal places; default 2. */
  places?: number;
  sign?: DecimalSign;
  /** The expected form in messages; default "50000.00". */
  example?: string;
  description?: string;
  /** Further rules as patterns, each with its words (a share at most 1, a percentage at most 100). */
  limits?: readonly { pattern: string; expected: string }[];
}

/** The decimal strings money.ts parseDecimal accepts, with at most `places` places. */
export function decimalPattern(places: number): string {
  return places === 0 ? '^-?(0|[1-9][0-9]*)$' : `^-?(0|[1-9][0-9]*)(\\.[0-9]{1,${places}})?$`;
}

/**
 * An exact decimal string: its form (places), then its sign, then any limits, each refused in its own words
 * (`expected a decimal string zero or more, got "-1.00"`). A number is refused with a hint to quote it.
 */
export function DecimalText(rules: DecimalRules = {}) {
  const places = rules.places ?? 2;
  const sign = rules.sign ?? 'any';
  const words = `a decimal string${SIGN_WORDS[sign]}`;
  const form = Type.String({
    pattern: decimalPattern(places),
    expected: `${words} with at most ${places} decimal places, like "${rules.example ?? '50000.00'}"`,
  });
  const signPattern = SIGN_PATTERNS[sign];
  const checks: TSchema[] = [
    form,
    ...(signPattern === undefined ? [] : [Type.String({ pattern: signPattern, expected: words })]),
    ...(rules.limits ?? []).map((limit) => Type.String({ pattern: limit.pattern, expected: limit.expected })),
  ];
  const help = rules.description === undefined ? {} : { description: rules.description };
  if (checks.length === 1) return Type.String({ ...form, ...help });
  return Type.Unsafe<string>(Type.Intersect(checks, help));
}

/** A money amount: a decimal string with at most two places (cents). */
export function Money(sign: DecimalSign, description?: string) {
  return DecimalText({ places: 2, sign, ...(description === undefined ? {} : { description }) });
}

/** An integer in a range, in a reader's words: `an integer ≥ 1`, `an integer from 0 to 200`. */
export function Int(range: { minimum?: number; maximum?: number } = {}, description?: string) {
  return Type.Integer({ ...range, ...(description === undefined ? {} : { description }) });
}

/** A string of a fixed set; refused as `expected one of a, b, got "c"`. */
export function OneOf<const T extends readonly string[]>(values: T, description?: string) {
  return Type.Unsafe<T[number]>({
    type: 'string',
    enum: [...values],
    ...(description === undefined ? {} : { description }),
  });
}

/** A non-empty string, at most `maxLength` characters when given. */
export function Text(options: { maxLength?: number; description?: string; expected?: string } = {}) {
  return Type.String({ minLength: 1, ...options });
}

/** A mapping with only the given keys (an unknown key is refused, listing these). */
export function Mapping<P extends Record<string, TSchema>>(
  properties: P,
  options: { expected?: string; description?: string; title?: string } = {},
) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** `true` or `false`. */
export function Flag(description?: string) {
  return Type.Boolean(description === undefined ? {} : { description });
}
