// Who may call a route (docs/api.md#the-auth-matrix). Every route declares its policy in its Fastify options,
// `config: { policy }`; the gateway (gateway/authenticate.ts) reads it before the handler runs, so a handler only
// ever sees a caller the policy admits, already resolved to a `Caller`.
import type { ReadScope } from '../core/kernel/query-types.js';

export type Scope = 'trading:read' | 'trading:write' | 'accounts:read' | 'accounts:write';
export type KeyRole = 'operator' | 'viewer';

/** Which simulated downstream service a route belongs to, for the sandbox's fault windows. */
export type FaultTarget = 'trading' | 'balances' | 'risk' | 'accounts';

export interface RoutePolicy {
  /** No authentication at all (health, the OpenAPI document, the docs page, login). */
  public?: boolean;
  /** Sandbox control: platform admin keys only (403 otherwise). */
  adminOnly?: boolean;
  /** The scope a firm key needs (403 `missing_scope`, checked first). */
  scope?: Scope;
  /** An `accounts:write` operation a viewer key may not run (403 `operator_required`). */
  operatorOnly?: boolean;
  /** A firm key is refused with 403 `firm_key_forbidden_route` (the interface's deny list). */
  firmKeyForbidden?: boolean;
  /** A trader's session (JWT) may call it, on the accounts it owns; otherwise 403 `user_forbidden_route`. */
  trader?: boolean;
  /** Firm routes (firm-control, admin query): a platform admin must name the firm in X-Firm-ID. */
  needsFirm?: boolean;
  /** The downstream service, for fault windows (the `gateway` target matches every non-public route). */
  faultTarget?: FaultTarget;
}

/** The authenticated caller of a request. */
export type Caller =
  | { kind: 'firm_key'; firmId: string; role: KeyRole; scopes: readonly Scope[]; key: string }
  | { kind: 'admin'; key: string; firmId?: string }
  | { kind: 'user'; userId: string; firmId: string; email: string; tokenId: string };

/** What the caller may read: its firm, its own accounts, or (admin) everything, narrowed by X-Firm-ID. */
export function readScopeOf(caller: Caller): ReadScope {
  switch (caller.kind) {
    case 'firm_key':
      return { firmId: caller.firmId };
    case 'admin':
      return caller.firmId === undefined ? {} : { firmId: caller.firmId };
    case 'user':
      return { firmId: caller.firmId, userId: caller.userId };
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
  }
  interface FastifyRequest {
    /** Set by the gateway on every non-public route. */
    caller: Caller;
  }
}
