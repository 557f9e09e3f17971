// The gateway's admission of a request (docs/api.md#gateway): who is calling, then the route's policy in the order
// the auth matrix promises — missing scope before the operator role; a firm key never names a firm; an admin names
// one on firm routes; a user session reaches only the routes open to users. Runs as an onRequest hook, before the
// body is read, so a refused request costs nothing more.
import type { FastifyRequest } from 'fastify';
import { echoed } from '../../core/validation/echo.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { ApiError } from './api-error.js';
import type { Caller, RoutePolicy } from './caller.js';
import { presentedCredentials, type Presented } from './credentials.js';

const ANONYMOUS: Caller = { kind: 'anonymous' };

/**
 * Admits the request or throws its ApiError. Firm and admin keys are checked synchronously; only a session token
 * answers with a promise (jose verifies asynchronously), so the common path allocates no promise.
 */
export function authenticate(request: FastifyRequest, sandbox: Sandbox): Promise<void> | undefined {
  // Every route has a policy (route-policies.ts); only the not-found handler has none, and it answers 404.
  const policy: RoutePolicy = request.routeOptions.config.policy ?? { public: true };
  request.caller = ANONYMOUS;
  if (policy.public) {
    if (policy.firmKeyForbidden) refuseFirmKeyOnPublicRoute(request, sandbox);
    return undefined;
  }
  const ticket = policy.streamTicket ? (request.query as { ticket?: unknown }).ticket : undefined;
  if (typeof ticket === 'string') {
    // Issued after this same policy admitted the caller (POST /v1/firm-ws/tickets), so it is not checked again.
    const caller = sandbox.streamTickets.take(ticket, sandbox.kernel.nowMs);
    if (!caller)
      throw new ApiError(401, 'invalid_ticket', 'the stream ticket is unknown, used or expired; ask for another');
    request.caller = caller;
    return undefined;
  }
  const presented = presentedCredentials(request.raw, () => sessionCookieOf(request));
  if (presented.kind === 'jwt' && presented.fromCookie && request.ws) checkOrigin(request);
  if (presented.kind === 'jwt')
    return sessionCaller(presented.token, sandbox).then((caller) => {
      request.caller = caller;
      admit(request, policy, caller, sandbox);
    });
  const caller = keyCaller(presented, sandbox);
  request.caller = caller;
  admit(request, policy, caller, sandbox);
  return undefined;
}

/**
 * Whether the request tries to authenticate: it presents a key, a token, a session cookie or a stream ticket, or it
 * logs in. Such requests are what the failed-authentication limit holds back (failed-auth-limit.ts).
 */
export function triesToAuthenticate(request: FastifyRequest): boolean {
  const { headers } = request;
  if (headers['x-service-api-key'] !== undefined || headers.authorization !== undefined) return true;
  if (request.routeOptions.config.policy?.checksPassword) return true;
  if (typeof headers.cookie === 'string' && headers.cookie.includes('session=')) return true;
  return request.routeOptions.config.policy?.streamTicket === true && request.url.includes('ticket=');
}

/** Login is open to anyone but a firm key (the interface's deny list). */
function refuseFirmKeyOnPublicRoute(request: FastifyRequest, sandbox: Sandbox): void {
  let presented;
  try {
    presented = presentedCredentials(request.raw, () => sessionCookieOf(request));
  } catch {
    return;
  }
  if (presented.kind === 'key' && sandbox.keys.get(presented.key)?.kind === 'firm_key') throw firmKeyForbidden();
}

/**
 * A browser sends the session cookie with a WebSocket upgrade from any page, another site's too, and WebSockets are
 * not bound by CORS: an upgrade authenticated by the cookie must come from a page of this server (its Origin's host is
 * the Host asked for). A client that sends no Origin is not a browser, and sent the cookie on purpose.
 */
function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host === undefined || host !== request.headers.host)
    throw new ApiError(
      403,
      'origin_forbidden',
      `a stream opened with the session cookie must come from a page of this server; Origin ${echoed(origin)} is not ${echoed(request.headers.host ?? 'this host')}`,
    );
}

function keyCaller(presented: Exclude<Presented, { kind: 'jwt' }>, sandbox: Sandbox): Caller {
  switch (presented.kind) {
    case 'none':
      throw new ApiError(401, 'missing_credentials', 'send a key in X-Service-Api-Key, or a session token');
    case 'malformed':
      throw invalidCredentials();
    case 'key': {
      const grant = sandbox.keys.get(presented.key);
      if (!grant) throw invalidCredentials();
      if (grant.kind === 'admin') return { kind: 'admin', key: presented.key };
      return {
        kind: 'firm_key',
        key: presented.key,
        firmId: sandbox.firmIdOf(grant.firmSlug),
        role: grant.role,
        scopes: grant.scopes,
      };
    }
  }
}

async function sessionCaller(token: string, sandbox: Sandbox): Promise<Caller> {
  // Taken before the check: a reset while it runs ends the session it admits (session-open.ts).
  const generation = sandbox.generation;
  const check = await sandbox.tokens.verify(token, sandbox.kernel.nowMs, sandbox.revokedTokens);
  if (!check.ok) throw check.code === 'token_expired' ? expiredSession() : invalidSession();
  return { kind: 'user', ...check.claims, generation };
}

function admit(request: FastifyRequest, policy: RoutePolicy, caller: Caller, sandbox: Sandbox): void {
  const firmHeader = request.headers['x-firm-id'];
  switch (caller.kind) {
    case 'firm_key':
      if (policy.adminOnly) throw adminRequired();
      if (policy.firmKeyForbidden) throw firmKeyForbidden();
      if (firmHeader !== undefined)
        throw new ApiError(400, 'firm_id_header_forbidden', 'a firm key names its firm itself: do not send X-Firm-ID');
      if (policy.scope && !caller.scopes.includes(policy.scope))
        throw new ApiError(
          403,
          'missing_scope',
          `this route needs the scope ${policy.scope}, which the key does not have`,
        );
      if (policy.operatorOnly && caller.role !== 'operator')
        throw new ApiError(403, 'operator_required', 'this operation needs an operator key; this key is a viewer');
      return;
    case 'admin': {
      if (policy.unsimulated) throw routeNotFound(request);
      if (policy.sessionOnly)
        throw new ApiError(403, 'session_required', 'this route is for trader sessions: log in and send the token');
      if (policy.adminOnly) return; // sandbox control acts on the whole sandbox: X-Firm-ID means nothing there
      if (typeof firmHeader === 'string' && firmHeader !== '') {
        const firm = sandbox.kernel.read.firm(firmHeader);
        if (!firm) throw new ApiError(404, 'firm_not_found', `no firm has the slug or id ${echoed(firmHeader)}`);
        caller.firmId = firm.firm_id;
      } else if (policy.needsFirm) {
        throw new ApiError(
          400,
          'firm_id_required',
          'a platform admin key names the firm in X-Firm-ID (its slug or id)',
        );
      }
      return;
    }
    case 'user':
      if (policy.adminOnly) throw adminRequired();
      if (policy.unsimulated) throw routeNotFound(request);
      if (!policy.users)
        throw new ApiError(403, 'user_forbidden_route', 'a user session cannot call this route; it is for firm keys');
      return;
    case 'anonymous':
      return;
  }
}

/** A session token that is revoked, ended by a reset, or not one of ours (docs/api.md#what-a-reset-ends). */
export function invalidSession(): ApiError {
  return new ApiError(
    401,
    'invalid_credentials',
    'the session token is not valid: revoked (logout, refresh), ended by a sandbox reset, or not one of ours; log in again',
  );
}

/** A session token whose `exp` has passed on the simulated clock. */
export function expiredSession(): ApiError {
  return new ApiError(401, 'token_expired', 'the session token has expired; log in again');
}

function invalidCredentials(): ApiError {
  return new ApiError(401, 'invalid_credentials', 'the key or token is not valid');
}

function adminRequired(): ApiError {
  return new ApiError(403, 'admin_required', 'sandbox control needs a platform admin key');
}

function firmKeyForbidden(): ApiError {
  return new ApiError(403, 'firm_key_forbidden_route', 'firm keys may not call this route');
}

export function routeNotFound(request: FastifyRequest): ApiError {
  return new ApiError(
    404,
    'route_not_found',
    `no route ${echoed(request.method)} ${echoed(request.url.split('?')[0]!)}`,
  );
}

/** The `session` cookie, parsed on demand (docs/api.md#keys-and-login). */
function sessionCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? request.server.parseCookie(header).session : undefined;
}
