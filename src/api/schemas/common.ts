// Schemas shared by the routes: path parameters, list queries and the error answers each route documents
// (docs/api.md#lists-and-pagination, docs/api.md#errors). The public shapes themselves are in src/core/shapes.
import { Type, type TSchema } from 'typebox';
import { ErrorShape, Id } from '../../core/shapes/common.js';

/** Path ids must be UUIDs: a malformed id is a 400 naming it, an unknown or foreign one a 404. */
export const AccountParams = Type.Object({ account_id: Id });
export const OrderParams = Type.Object({ order_id: Id });
export const TradeParams = Type.Object({ trade_id: Id });

const Limit = Type.Integer({ minimum: 1, maximum: 500, description: 'items per page, 1 to 500 (default 100)' });
const Cursor = Type.String({ minLength: 1, description: "the previous page's next_cursor" });
const FromMs = Type.Integer({ description: 'Unix ms, inclusive' });

/** `limit`, `cursor` and the filters a list allows. */
export function ListQuery<P extends Record<string, TSchema>>(filters: P) {
  return Type.Object(
    { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor), ...filters },
    { additionalProperties: false },
  );
}

export const AccountFilter = { account_id: Type.Optional(Type.String({ description: 'only this account' })) };
export const InstrumentFilter = { instrument_id: Type.Optional(Type.String({ description: 'only this instrument' })) };
export const TimeFilter = { from: Type.Optional(FromMs), to: Type.Optional(FromMs) };

/** The documented error answers of a route, all in the envelope. */
export function errors(...statuses: number[]): Record<number, typeof ErrorShape> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorShape]));
}

/** The errors every route behind the gateway may answer: body, credentials, scope, rate limit, fault windows. */
export const GATEWAY_ERRORS = errors(400, 401, 403, 404, 413, 415, 421, 429, 502, 503);
