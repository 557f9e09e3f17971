// A step's request as it goes on the wire (docs/api.md#the-simulation): the client's credentials, and the ids its
// positions name resolved against what exists now: its firm's accounts (a trader's own; a rogue's are the other
// firm's), the orders and OCO groups its firm was answered.
import { fingerprintOf } from '../api/sandbox/idempotency.js';
import type { Kernel } from '../core/kernel/kernel.js';
import type { ClientSpec, SimCast } from './sim-clients.js';
import { GARBAGE_ROUTES, garbagePayload, GUARDED_ROUTES, type RouteTemplate } from './sim-garbage.js';
import type { SimModel, TokenRecord } from './sim-model.js';
import { moneyOf, priceOf, symbolOf, type Call, type ClientCall } from './sim-steps.js';

/** Who the gateway should see: a firm's key, an admin naming a firm (or none), a user's session, or nobody. */
export type CallerView =
  | { kind: 'firm_key'; firm: number }
  | { kind: 'admin'; firm: number | undefined }
  | { kind: 'user'; firm: number; token: TokenRecord }
  | { kind: 'anonymous' };

export interface Prepared {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** A body: JSON text, or any text or bytes (garbage). */
  payload?: string | Buffer;
  caller: CallerView;
  /** The firm whose ids the request names. */
  targetFirm: number;
  idempotency?: { id: string; key: string; fingerprint: string };
}

export interface ResolveContext {
  cast: SimCast;
  clients: readonly ClientSpec[];
  model: SimModel;
  kernel: Kernel;
}

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

export function prepare(cc: ClientCall, ctx: ResolveContext): Prepared {
  const spec = ctx.clients[cc.client]!;
  const { headers, caller } = credentials(cc, spec, ctx);
  const targetFirm = spec.kind === 'rogue' ? (spec.firm + 1) % ctx.cast.firms.length : firmOfCall(cc, spec);
  const ids = new IdResolver(ctx, caller, targetFirm);
  const request = requestOf(cc.call, ids, ctx, borrowedIds(cc, ctx) ?? ids);
  const prepared: Prepared = { ...request, headers: { ...headers, ...request.headers }, caller, targetFirm };
  if (cc.call.op === 'place' && cc.call.key !== undefined && typeof request.payload === 'string') {
    const scope =
      caller.kind === 'admin' && caller.firm === undefined
        ? 'platform'
        : ctx.cast.firms[targetFirmOf(caller, targetFirm)]!.slug;
    prepared.idempotency = {
      id: `${scope}\u0000${cc.call.key}`,
      key: cc.call.key,
      fingerprint: fingerprintOf(JSON.parse(request.payload)),
    };
  }
  return prepared;
}

/** For a placement that borrows another client's body: the ids as that client resolves them. */
function borrowedIds(cc: ClientCall, ctx: ResolveContext): IdResolver | undefined {
  if (cc.call.op !== 'place' || cc.call.borrow === undefined) return undefined;
  const lender: ClientCall = { ...cc, client: cc.call.borrow % ctx.clients.length };
  const spec = ctx.clients[lender.client]!;
  const { caller } = credentials(lender, spec, ctx);
  const firm = spec.kind === 'rogue' ? (spec.firm + 1) % ctx.cast.firms.length : firmOfCall(lender, spec);
  return new IdResolver(ctx, caller, firm);
}

/** The firm a caller's idempotency keys belong to (docs/api.md#idempotency): its own, or the one an admin names. */
function targetFirmOf(caller: CallerView, targetFirm: number): number {
  return caller.kind === 'firm_key' || caller.kind === 'user' ? caller.firm : targetFirm;
}

function firmOfCall(cc: ClientCall, spec: ClientSpec): number {
  return spec.kind === 'admin' ? (cc.firm ?? 0) : spec.firm;
}

function credentials(
  cc: ClientCall,
  spec: ClientSpec,
  ctx: ResolveContext,
): { headers: Record<string, string>; caller: CallerView } {
  const firm = ctx.cast.firms[spec.firm]!;
  switch (spec.kind) {
    case 'operator':
    case 'rogue':
      return { headers: { 'x-service-api-key': firm.operatorKey }, caller: { kind: 'firm_key', firm: spec.firm } };
    case 'viewer':
      return { headers: { 'x-service-api-key': firm.viewerKey }, caller: { kind: 'firm_key', firm: spec.firm } };
    case 'admin': {
      const named = cc.firm ?? undefined;
      return {
        headers: {
          'x-service-api-key': ctx.cast.adminKey,
          ...(named === undefined ? {} : { 'x-firm-id': ctx.cast.firms[named]!.slug }),
        },
        caller: { kind: 'admin', firm: named },
      };
    }
    case 'trader': {
      if (cc.call.op === 'login') return { headers: {}, caller: { kind: 'anonymous' } };
      const token = ctx.model.token(cc.client, cc.token ?? 0);
      if (!token) return { headers: {}, caller: { kind: 'anonymous' } };
      return { headers: { authorization: `Bearer ${token.token}` }, caller: { kind: 'user', firm: token.firm, token } };
    }
  }
}

/** Positions to ids: the n-th (wrapping) of what the caller's target firm (or user) has. */
class IdResolver {
  constructor(
    private readonly ctx: ResolveContext,
    private readonly caller: CallerView,
    readonly firm: number,
  ) {}

  account(n: number): string {
    const read = this.ctx.kernel.read;
    const firmId = read.firm(this.ctx.cast.firms[this.firm]!.slug)?.firm_id ?? NO_SUCH_ID;
    const userId = this.caller.kind === 'user' && this.caller.firm === this.firm ? this.caller.token.userId : undefined;
    const list = read.accounts({ firmId, ...(userId ? { userId } : {}) }, {}, { limit: 100 });
    const items = list.ok ? list.body.items : [];
    return items.length === 0 ? NO_SUCH_ID : items[n % items.length]!.account_id;
  }

  order(n: number): string {
    return nth(this.ctx.model.orders[this.firm]!, n);
  }

  group(n: number): string {
    return nth(this.ctx.model.groups[this.firm]!, n);
  }

  trade(n: number): string {
    const read = this.ctx.kernel.read;
    const firmId = read.firm(this.ctx.cast.firms[this.firm]!.slug)?.firm_id ?? NO_SUCH_ID;
    const list = read.trades({ firmId }, {}, { limit: 50 });
    return list.ok
      ? nth(
          list.body.items.map((t) => t.trade_id),
          n,
        )
      : NO_SUCH_ID;
  }

  /** A route's path with its {account} and {order} filled. */
  path(route: RouteTemplate, n: number): string {
    return route.path.replace('{account}', this.account(n)).replace('{order}', this.order(n));
  }
}

function nth(ids: readonly string[], n: number): string {
  return ids.length === 0 ? NO_SUCH_ID : ids[ids.length - 1 - (n % ids.length)]!;
}

type Request = Pick<Prepared, 'method' | 'url' | 'payload'> & { headers?: Record<string, string> };

const json = (method: Request['method'], url: string, body?: unknown): Request => ({
  method,
  url,
  ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
});

function requestOf(call: Call, ids: IdResolver, ctx: ResolveContext, bodyIds: IdResolver): Request {
  switch (call.op) {
    case 'place': {
      const body = {
        account_id: bodyIds.account(call.account),
        instrument_id: symbolOf(call.instrument),
        side: call.side,
        type: call.type,
        quantity: call.quantity,
        ...(call.ticks === undefined ? {} : { limit_price: priceOf(call.instrument, call.ticks) }),
        ...(call.stopTicks === undefined ? {} : { stop_price: priceOf(call.instrument, call.stopTicks) }),
        time_in_force: call.tif,
      };
      const placed = json('POST', '/v1/orders', body);
      return call.key === undefined
        ? placed
        : { ...placed, headers: { ...placed.headers, 'idempotency-key': call.key } };
    }
    case 'modify':
      return json('PATCH', `/v1/orders/${ids.order(call.order)}`, {
        ...(call.quantity === undefined ? {} : { quantity: call.quantity }),
        ...(call.ticks === undefined ? {} : { limit_price: priceOf(0, call.ticks) }),
      });
    case 'cancel':
      return json('DELETE', `/v1/orders/${ids.order(call.order)}`);
    case 'oco_link':
      return json('POST', '/v1/orders/groups/oco/link', { order_ids: call.orders.map((n) => ids.order(n)) });
    case 'oco_companion':
      return json('POST', '/v1/orders/groups/oco/companion', {
        oco_group_id: ids.group(call.group),
        order_id: ids.order(call.order),
      });
    case 'provision': {
      const firm = ctx.cast.firms[ids.firm]!;
      return json('POST', '/v1/firm-control/accounts', {
        user: { email: firm.emails[call.email % firm.emails.length] },
        plan_reference: firm.plans[call.plan % firm.plans.length],
        count: call.count,
        ...(call.key === undefined ? {} : { idempotency_key: call.key }),
      });
    }
    case 'account':
      return accountOperation(call, ids.account(call.account));
    case 'adjust':
      return json('POST', `/v1/balances/${ids.account(call.account)}/adjust`, {
        amount: moneyOf(call.cents),
        reason_code: 'sim',
      });
    case 'daily_loss_trigger':
      return json('POST', `/v1/balances/${ids.account(call.account)}/daily-loss/trigger`, {
        reason_code: 'sim',
        daily_loss_limit_trigger: moneyOf(call.cents),
      });
    case 'max_loss_limit':
      return json('PATCH', `/v1/firm-control/accounts/${ids.account(call.account)}/max-loss-limit`, {
        max_drawdown_limit: call.cents === null ? null : moneyOf(call.cents),
      });
    case 'offering':
      return json('PUT', '/v1/firm-control/offerings', { product_family: call.family, enabled: call.enabled });
    case 'read':
      return json('GET', readPath(call, ids));
    case 'login': {
      const firm = ctx.cast.firms[ids.firm]!;
      const login = json('POST', '/v1/auth/login', {
        email: firm.emails[call.email % firm.emails.length],
        password: ctx.cast.password,
      });
      return call.fingerprint === undefined
        ? login
        : { ...login, headers: { ...login.headers, 'x-device-fingerprint': call.fingerprint } };
    }
    case 'refresh':
      return json('POST', '/v1/auth/refresh');
    case 'logout':
      return json('POST', '/v1/auth/logout');
    case 'prints':
      return json('POST', '/v1/sandbox/market/prints', {
        prints: call.ticks.map((t) => ({
          instrument_id: symbolOf(call.instrument),
          price: priceOf(call.instrument, t),
        })),
      });
    case 'advance': {
      const body =
        call.by !== undefined
          ? { by: call.by }
          : call.toNext !== undefined
            ? { to_next: call.toNext }
            : { to: ctx.kernel.nowMs + (call.aheadMs ?? 0) };
      return json('POST', '/v1/sandbox/clock/advance', body);
    }
    case 'reset':
      return json('POST', '/v1/sandbox/reset');
    case 'fault':
      return json('POST', '/v1/sandbox/faults', {
        target: call.target,
        status: call.status,
        duration_ms: call.durationMs,
        ...(call.pathPrefix === undefined ? {} : { path_prefix: call.pathPrefix }),
      });
    case 'clear_faults':
      return json('DELETE', '/v1/sandbox/faults');
    case 'clock':
      return json('GET', '/v1/sandbox/clock');
    case 'session_export':
      return json('GET', '/v1/sandbox/session.yaml');
    case 'garbage': {
      const route = GARBAGE_ROUTES[call.route % GARBAGE_ROUTES.length]!;
      const { payload, headers } = garbagePayload(call.body);
      return {
        method: route.method,
        url: ids.path(route, call.route),
        payload,
        headers: { 'content-type': call.contentType, ...headers },
      };
    }
    case 'bad_auth': {
      const route = GUARDED_ROUTES[call.route % GUARDED_ROUTES.length]!;
      return { method: route.method, url: ids.path(route, call.route), headers: badCredentials(call.how, ctx.cast) };
    }
  }
}

function accountOperation(call: Extract<Call, { op: 'account' }>, account: string): Request {
  switch (call.what) {
    case 'lockout':
      return json('POST', `/v1/accounts/${account}/lockout`, {
        reason_code: 'sim',
        ...(call.flatten ? { flatten: true } : {}),
      });
    case 'unlock':
      return json('DELETE', `/v1/accounts/${account}/lockout`);
    case 'flatten':
      return json('POST', `/v1/accounts/${account}/flatten`);
    case 'cancel_all':
      return json('POST', `/v1/accounts/${account}/orders/cancel`);
    case 'replace':
      return json('POST', `/v1/firm-control/accounts/${account}/replace`);
    case 'reanchor':
      return json('POST', `/v1/balances/${account}/daily-loss/reanchor`, { reason_code: 'sim' });
  }
}

const ADMIN_QUERIES = ['accounts', 'orders', 'fills', 'balances'] as const;

function readPath(call: Extract<Call, { op: 'read' }>, ids: IdResolver): string {
  const account = () => ids.account(call.ref);
  const filtered = (path: string) => (call.ref % 2 === 0 ? `${path}?account_id=${account()}&limit=50` : path);
  switch (call.what) {
    case 'orders':
      return filtered('/v1/orders');
    case 'order':
      return `/v1/orders/${ids.order(call.ref)}`;
    case 'order_states':
      return `/v1/orders/${ids.order(call.ref)}/states`;
    case 'fills':
      return filtered('/v1/fills');
    case 'trades':
      return filtered('/v1/trades');
    case 'trade_lots':
      return `/v1/trades/${ids.trade(call.ref)}/lots`;
    case 'positions':
      return filtered('/v1/positions');
    case 'account_positions':
      return `/v1/accounts/${account()}/positions`;
    case 'daily_positions':
      return `/v1/accounts/${account()}/positions/daily?from_date=2026-03-01&to_date=2026-12-31`;
    case 'stats':
      return `/v1/stats?account_id=${account()}`;
    case 'balances':
      return filtered('/v1/balances');
    case 'balance':
      return `/v1/balances/${account()}`;
    case 'adjustments':
      return `/v1/balances/${account()}/adjustments`;
    case 'risk_state':
      return `/v1/firm-control/accounts/${account()}/risk-state`;
    case 'accounts':
      return '/v1/firm-control/accounts?limit=100';
    case 'offerings':
      return '/v1/firm-control/offerings';
    case 'admin_query':
      return `/v1/admin/query/${ADMIN_QUERIES[call.ref % ADMIN_QUERIES.length]}?limit=50`;
  }
}

function badCredentials(how: Extract<Call, { op: 'bad_auth' }>['how'], cast: SimCast): Record<string, string> {
  const key = cast.firms[0]!.operatorKey;
  switch (how) {
    case 'none':
      return {};
    case 'unknown_key':
      return { 'x-service-api-key': 'svc_live_no_such_key_of_the_simulation' };
    case 'both_headers':
      return { 'x-service-api-key': key, authorization: `Bearer ${cast.firms[1]!.operatorKey}` };
    case 'firm_header':
      return { 'x-service-api-key': key, 'x-firm-id': cast.firms[0]!.slug };
  }
}
