// Every `code` the error envelope can carry (docs/api.md#errors), as the `ErrorCode` enum of the OpenAPI document, so
// that a generated client can switch on it. The codes are written where each refusal is made (the gateway, the
// routes, the kernel); test/api/openapi-error-codes.test.ts finds each one in the source and fails when it is
// missing here, and every answer the API tests receive is checked against the document, this enum included.

export const ERROR_CODES = [
  // 400
  'invalid_request',
  'invalid_json',
  'invalid_cursor',
  'firm_id_header_forbidden',
  'firm_id_required',
  'fill_in_future',
  // 401
  'missing_credentials',
  'invalid_credentials',
  'multiple_credentials',
  'invalid_login',
  'token_expired',
  'invalid_ticket',
  // 403
  'missing_scope',
  'operator_required',
  'firm_key_forbidden_route',
  'user_forbidden_route',
  'admin_required',
  'session_required',
  'entity_mismatch',
  'origin_forbidden',
  // 404
  'account_not_found',
  'order_not_found',
  'trade_not_found',
  'oco_group_not_found',
  'user_not_found',
  'role_not_found',
  'firm_not_found',
  'route_not_found',
  // 409
  'idempotency_key_reused',
  'idempotency_request_in_progress',
  'order_final',
  'risk_order',
  'oco_conflict',
  'oco_member_filled',
  'account_closed',
  'clock_backwards',
  'not_firm_locked',
  'no_daily_loss_limit',
  'no_daily_loss_allowance',
  'static_drawdown',
  'firm_exists',
  'user_exists',
  // 413, 415, 421, 426, 429
  'body_too_large',
  'unsupported_media_type',
  'wrong_shard',
  'upgrade_required',
  'rate_limited',
  // 5xx
  'internal',
  'bad_gateway',
  'service_unavailable',
  'risk_loading',
  'store_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

type Json = Record<string, unknown>;

/** The envelope's `code` as a `$ref` to the `ErrorCode` enum, once the document is generated. */
export function documentErrorCodes(document: Json): void {
  const schemas = ((document.components ?? {}) as Json).schemas as Record<string, Json>;
  const properties = schemas.ErrorEnvelope?.properties as Record<string, Json> | undefined;
  if (!properties?.code) throw new Error('the error codes document ErrorEnvelope.code, which the document lacks');
  schemas.ErrorCode = {
    type: 'string',
    enum: [...ERROR_CODES],
    description: 'a stable word for programs: what went wrong (docs/api.md#errors)',
  };
  properties.code = { $ref: '#/components/schemas/ErrorCode' };
}
