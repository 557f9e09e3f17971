// The credentials each operation of the OpenAPI document accepts (docs/api.md#keys-and-login,
// docs/api.md#client-generators), derived from the route's policy, the same one gateway/authenticate.ts enforces:
// a firm or admin key in X-Service-Api-Key or as a bearer token, and a user's session as a bearer token or the
// session cookie. The document lists them as alternatives, one of which a request sends: the gateway answers two
// credentials with 401 multiple_credentials, so a generator that fills every scheme it is given (hey-api's
// `auth: value`) needs the set-up docs/api.md#client-generators shows. Documentation only.
import type { FastifySchema } from 'fastify';
import type { RoutePolicy } from '../gateway/caller.js';

type Requirement = Record<string, string[]>;

export const SECURITY_SCHEMES = {
  firmKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Api-Key',
    description:
      'a firm or platform admin key (svc_live_…). Send one credential per request: this header, or the key as a ' +
      'bearer token, never both (401 multiple_credentials)',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Authorization: Bearer with a firm key (svc_live_…) or a session token from /v1/auth/login; never beside ' +
      'X-Service-Api-Key (401 multiple_credentials)',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description: 'the session cookie login sets; read only when no header credential came',
  },
} as const;

const KEY: Requirement[] = [{ firmKey: [] }, { bearer: [] }];
const SESSION: Requirement[] = [{ bearer: [] }, { session: [] }];
const KEY_OR_SESSION: Requirement[] = [{ firmKey: [] }, { bearer: [] }, { session: [] }];

/** The credentials a route's policy admits, as the operation's security requirements (any one of them). */
export function securityOf(policy: RoutePolicy | undefined): Requirement[] {
  if (!policy || policy.public) return [];
  if (policy.firmKeyForbidden || policy.sessionOnly) return SESSION;
  return policy.users ? KEY_OR_SESSION : KEY;
}

/** The route's schema with the security its policy admits; a schema that declares its own keeps it. */
export function withSecurity(schema: FastifySchema, policy: RoutePolicy | undefined): FastifySchema {
  if (!schema || 'security' in schema) return schema;
  return { ...schema, security: securityOf(policy) } as FastifySchema;
}
