// Who is calling and what a route lets them do (docs/api.md#the-auth-matrix). Every route declares its policy in
// its options, `config: { policy }`; the gateway (gateway/authenticate.ts) resolves the caller and enforces the
// policy before validation, so a handler only sees callers the policy admits.
import type { ReadScope } from '../../core/kernel/read/reads.js';
import type { FaultTarget } from '../sandbox/fault-windows.js';
import type { KeyRole, Scope } from '../sandbox/seed-file.js';

export interface RoutePolicy {
  /** No credentials at all (health, the OpenAPI document, login). */
  public?: boolean;
  /** Never behind a fault window (health, the OpenAPI document and docs page). */
  noFaults?: boolean;
  /** Sandbox control: platform admin keys only (403 `admin_required`). */
  adminOnly?: boolean;
  /** The scope a firm key needs (403 `missing_scope`, checked first). */
  scope?: Scope;
  /** An accounts:write operation a viewer key may not run (403 `operator_required`). */
  operatorOnly?: boolean;
  /** A user session (JWT) may call it, on the accounts it owns; otherwise 403 `user_forbidden_route`. */
  users?: boolean;
  /** A stream a browser opens: a one-time `?ticket=` stands for the caller that asked for it (the firm stream). */
  streamTicket?: boolean;
  /** Only a user session (JWT): a platform admin key is refused too (403 `session_required`), e.g. /v1/ws. */
  sessionOnly?: boolean;
  /** The route checks a password (login): held back, like credentials, by the failed-authentication limit. */
  checksPassword?: boolean;
  /** A firm key may not call it (403 `firm_key_forbidden_route`): login, the interface's deny list. */
  firmKeyForbidden?: boolean;
  /** A route of the service the sandbox does not simulate: firm keys 403, everyone else 404 (docs/api.md#the-auth-matrix). */
  unsimulated?: boolean;
  /** The route acts on one firm: a platform admin names it in X-Firm-ID (400 `firm_id_required`). */
  needsFirm?: boolean;
  /** The downstream service, for fault windows; every authenticated route is also behind `gateway`. */
  faultTarget?: Exclude<FaultTarget, 'gateway'>;
}

export type Caller =
  | { kind: 'firm_key'; key: string; firmId: string; role: KeyRole; scopes: readonly Scope[] }
  | { kind: 'admin'; key: string; firmId?: string }
  | {
      kind: 'user';
      userId: string;
      firmId: string;
      email: string;
      tokenId: string;
      expiresAtMs: number;
      /** The sandbox's reset generation its token was checked in: a reset since ends the session (session-open.ts). */
      generation: number;
    }
  | { kind: 'anonymous' };

/** What the caller may see: its firm, its own accounts, or (an admin without X-Firm-ID) everything. */
export function readScopeOf(caller: Caller): ReadScope {
  switch (caller.kind) {
    case 'firm_key':
      return { firmId: caller.firmId };
    case 'admin':
      return caller.firmId === undefined ? {} : { firmId: caller.firmId };
    case 'user':
      return { firmId: caller.firmId, userId: caller.userId };
    case 'anonymous':
      return { firmId: '-' };
  }
}

/** The firm a firm route acts on; the gateway has already refused an admin without X-Firm-ID. */
export function firmOf(caller: Caller): string {
  if (caller.kind === 'anonymous' || caller.firmId === undefined) throw new Error('a firm route ran without a firm');
  return caller.firmId;
}

/** The key the rate limiter and logs know the caller by. */
export function callerKey(caller: Caller, ip: string): string {
  switch (caller.kind) {
    case 'firm_key':
    case 'admin':
      return `key:${caller.key}`;
    case 'user':
      return `user:${caller.userId}`;
    case 'anonymous':
      return `ip:${ip}`;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
  }
  interface FastifyRequest {
    caller: Caller;
  }
}
