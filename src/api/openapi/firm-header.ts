// X-Firm-ID as a header parameter of the routes a platform admin key may call with it (docs/api.md#keys-and-login,
// docs/api.md#the-auth-matrix): derived from each route's policy, the same one gateway/authenticate.ts enforces, so
// the document cannot list it where the gateway ignores it. Documentation only: the gateway reads the header itself,
// before validation.
import type { FastifySchema } from 'fastify';
import type { RoutePolicy } from '../gateway/caller.js';

type HeaderObject = { type: 'object'; properties: Record<string, unknown>; required?: string[] };

const ADMIN_ONLY_NOTE = 'A firm key names its firm itself and must not send it (400 firm_id_header_forbidden).';

/** The route's schema with an optional `x-firm-id` header beside its own, when an admin key may send one. */
export function withFirmHeader(schema: FastifySchema, policy: RoutePolicy | undefined): FastifySchema {
  if (!schema || !acceptsFirmHeader(policy)) return schema;
  const own = schema.headers as HeaderObject | undefined;
  const firm = {
    type: 'string',
    minLength: 1,
    description: policy?.needsFirm
      ? `The firm a platform admin key acts on, by slug or id: required here (400 firm_id_required). ${ADMIN_ONLY_NOTE}`
      : `The firm a platform admin key acts within, by slug or id; without it, every firm. ${ADMIN_ONLY_NOTE}`,
  };
  const headers: HeaderObject = {
    type: 'object',
    properties: { ...own?.properties, 'x-firm-id': firm },
    ...(own?.required ? { required: own.required } : {}),
  };
  return { ...schema, headers };
}

/** An admin key names a firm on every route that has one: not public, sandbox control, session-only or unsimulated. */
function acceptsFirmHeader(policy: RoutePolicy | undefined): boolean {
  if (!policy) return false;
  return !(policy.public || policy.adminOnly || policy.sessionOnly || policy.unsimulated || policy.firmKeyForbidden);
}
