// A kernel on the bundled calendar with accounts on hand-written plans, and shorthands for the risk tests:
// prints, orders, historical fills, and the live risk state item read directly (no loading window).
// ES: tick 0.25 = $12.50, so one point = $50 a contract.
import type { FillModel } from '../../../src/core/orders/fill-model.js';
import type { AccountCommandType } from '../../../src/core/kernel/write/commands.js';
import { Kernel, type KernelOptions } from '../../../src/core/kernel/kernel.js';
import type { Outcome } from '../../../src/core/outcome.js';
import { calendar, T0 } from '../kernel/kernel-harness.js';
import { testPlan } from '../kernel/test-plans.js';

export { calendar, T0, testPlan };

/** A UTC instant written as ISO (test times are written in CDT, UTC-5, on 2026-03-09..13). */
export const ms = (iso: string) => Date.parse(iso);

/** Risk profile of a plan in decimal strings; `testPlan` fills starting_balance 50,000 and a 3,000 target. */
export function plan(riskProfile: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return testPlan({ risk_profile: riskProfile, ...extra });
}

export interface RiskHarnessOptions {
  fillModel?: Partial<FillModel>;
  kernel?: Partial<KernelOptions>;
  startMs?: number;
}

export function riskHarness(options: RiskHarnessOptions = {}) {
  const kernel = new Kernel({
    startMs: options.startMs ?? T0,
    seed: 1,
    calendar,
    fillModel: options.fillModel ?? {},
    ...options.kernel,
  });

  const open = (p = testPlan(), alias?: string): string => {
    const outcome = kernel.dispatch({ type: 'open_account', plan: p, ...(alias ? { alias } : {}) });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
    return outcome.body.account_id;
  };

  /** The live risk state item, read directly (scenarios' expect reads the same). */
  const item = (accountId: string): Record<string, unknown> => {
    const state = kernel.read.accountState(accountId);
    if (!state) throw new Error(`no account ${accountId}`);
    return { ...state };
  };

  /** Moves the clock to an ISO time (what falls due on the way happens). */
  const at = (iso: string) => kernel.dispatch({ type: 'advance', to_ms: ms(iso) });

  /** A print of `symbol` at `price` (decimal string), `afterMs` after the current time. */
  const tick = (price: string, options: { symbol?: string; size?: number; afterMs?: number } = {}) => {
    kernel.dispatch({ type: 'advance', to_ms: kernel.nowMs + (options.afterMs ?? 0) });
    const size = options.size === undefined ? {} : { size: options.size };
    kernel.dispatch({ type: 'tick', instrument_id: options.symbol ?? 'ESM6', price, ...size });
  };

  const placeOutcome = (accountId: string, fields: Record<string, unknown>) =>
    kernel.dispatch({
      type: 'place_order',
      body: { account_id: accountId, instrument_id: 'ESM6', time_in_force: 'day', type: 'market', ...fields },
    });

  const place = (accountId: string, fields: Record<string, unknown>): string => {
    const outcome = placeOutcome(accountId, fields);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
    return outcome.body.order_id;
  };

  const order = (id: string): Record<string, unknown> => {
    const outcome = kernel.read.order({}, id);
    if (!outcome.ok) throw new Error('no order');
    return { ...outcome.body };
  };

  /** A historical execution (docs/risk-rules.md#historical-fills). */
  const fill = (accountId: string, side: 'buy' | 'sell', quantity: number, price: string, symbol = 'ESM6') =>
    kernel.dispatch({ type: 'record_fill', account_id: accountId, instrument_id: symbol, side, quantity, price });

  /** Market order through the venue, filled at the next print at `price`. */
  const trade = (accountId: string, side: 'buy' | 'sell', quantity: number, price: string) => {
    const id = place(accountId, { side, quantity });
    tick(price);
    const o = order(id);
    if (o.status !== 'FILLED') throw new Error(`entry not filled: ${JSON.stringify(o)}`);
    return id;
  };

  const control = (
    operation: AccountCommandType,
    accountId: string,
    body?: unknown,
  ): Outcome<Record<string, unknown>> => {
    const outcome = kernel.dispatch({
      type: operation,
      account_id: accountId,
      ...(body === undefined ? {} : { body }),
    });
    return outcome.ok ? { ...outcome, body: { ...outcome.body } } : outcome;
  };

  /** The body of a successful control, or a thrown error with the refusal. */
  const ok = (operation: AccountCommandType, accountId: string, body?: unknown): Record<string, unknown> => {
    const outcome = control(operation, accountId, body);
    if (!outcome.ok) throw new Error(`${operation}: ${outcome.status} ${JSON.stringify(outcome.body)}`);
    return outcome.body;
  };

  /** An order's last status record (status, reason). */
  const lastState = (id: string): Record<string, unknown> | undefined => {
    const outcome = kernel.read.orderStates({}, id);
    return outcome.ok ? { ...outcome.body.items.at(-1) } : undefined;
  };

  const net = (accountId: string, symbol = 'ESM6') => kernel.read.netQuantity(accountId, symbol);

  /** Orders of an account by origin ('client' | 'risk'), in placement order. */
  const ordersOf = (accountId: string, origin?: 'client' | 'risk') =>
    kernel
      .internals()
      .desk.orderList.filter((o) => o.accountId === accountId && (origin === undefined || o.origin === origin));

  /** Events of a type published from now on. */
  const events = (type: string) => {
    const seen: Array<Record<string, unknown>> = [];
    kernel.events$.subscribe((e) => {
      if (e.type === type) seen.push(e.data);
    });
    return seen;
  };

  return {
    kernel,
    at,
    open,
    item,
    tick,
    placeOutcome,
    place,
    order,
    lastState,
    fill,
    trade,
    control,
    ok,
    net,
    ordersOf,
    events,
  };
}
