// Building blocks of the public shapes (docs/api.md#shapes): what ids, money, prices and times look like on the
// wire. The shapes are TypeBox schemas, so one definition types the kernel's answers, validates them in tests
// and documents them in the sandbox's OpenAPI document (docs/architecture.md#one-schema-source).
import { Type, type TSchema } from 'typebox';

/** Lowercase hyphenated UUIDs (docs/api.md#shapes). */
export const Id = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'a lowercase hyphenated UUID',
});

/** Money as a decimal string with two places, never a number. */
export const Money = Type.String({
  pattern: '^-?\\d+\\.\\d{2}$',
  description: 'a decimal string with two places, like "50000.00"',
});

/** A price on the instrument's tick grid, written with its usual places. */
export const Price = Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', description: 'a decimal string, like "5000.25"' });

/** Money as a client writes it: a decimal string with at most two places. */
export const MoneyInput = Type.String({
  pattern: '^-?\\d+(\\.\\d{1,2})?$',
  description: 'a decimal string with at most 2 places, like "49500.00"',
});

/** A value, or null to remove it (overlays and caps). */
export function Nullable<T extends TSchema>(schema: T) {
  const what = (schema as { description?: string }).description ?? 'a value';
  return Type.Union([schema, Type.Null()], { description: `${what}, or null to remove it` });
}

export const TimeMs = Type.Integer({ description: 'Unix milliseconds' });

/** YYYY-MM-DD: a GLOBEX trade date (the date of the session's close). */
export const TradeDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a date YYYY-MM-DD' });

export const Side = Type.Union([Type.Literal('buy'), Type.Literal('sell')]);

/** One member of `{error, code, details?}` per bad field of a request (docs/api.md#errors). */
export const FieldDetailShape = Type.Object(
  { field: Type.String(), message: Type.String() },
  { additionalProperties: false },
);

/** The error envelope of every 4xx and 5xx: `error` first (docs/api.md#errors). */
export const ErrorShape = Type.Object(
  {
    error: Type.String({ description: 'what went wrong, for a person' }),
    code: Type.String({ description: 'a stable word for programs, like invalid_request or order_final' }),
    details: Type.Optional(Type.Array(FieldDetailShape)),
    request_id: Type.String(),
  },
  { additionalProperties: false },
);

/** A page of a list: `next_cursor` is null on the last page (docs/api.md#lists-and-pagination). */
export function PageOf<T extends TSchema>(item: T) {
  return Type.Object(
    { items: Type.Array(item), next_cursor: Type.Union([Type.String(), Type.Null()]) },
    { additionalProperties: false },
  );
}

/** A whole list, unpaged (`{items}`), for bounded lists such as an order's status records. */
export function ItemsOf<T extends TSchema>(item: T) {
  return Type.Object({ items: Type.Array(item) }, { additionalProperties: false });
}
