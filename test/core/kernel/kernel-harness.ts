// A kernel on the bundled calendar with one ES account, and shorthands for the tests.
import { GlobexCalendar } from '../../../src/core/calendar/index.js';
import { Kernel, type KernelOptions } from '../../../src/core/kernel/kernel.js';
import type { FillModel } from '../../../src/core/orders/fill-model.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { testPlan } from './test-plans.js';

export const calendar = new GlobexCalendar(loadHolidayFile());
/** Tuesday 2026-03-10 09:00 CDT: mid-session for every product. */
export const T0 = Date.parse('2026-03-10T14:00:00Z');
/** The platform admin's scope: every record is visible. */
export const ALL = {};

export function harness(fillModel: Partial<FillModel> = {}, options: Partial<KernelOptions> = {}) {
  const kernel = new Kernel({ startMs: T0, seed: 1, calendar, fillModel, ...options });
  const opened = kernel.dispatch({ type: 'open_account', plan: testPlan() });
  if (!opened.ok) throw new Error('account');
  const accountId = opened.body.account_id;
  const place = (fields: Record<string, unknown>) => {
    const outcome = kernel.dispatch({
      type: 'place_order',
      body: { account_id: accountId, instrument_id: 'ESM6', time_in_force: 'day', ...fields },
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
    return outcome.body.order_id;
  };
  const order = (id: string) => {
    const outcome = kernel.read.order(ALL, id);
    if (!outcome.ok) throw new Error('no order');
    return outcome.body;
  };
  const states = (id: string) => {
    const outcome = kernel.read.orderStates(ALL, id);
    if (!outcome.ok) throw new Error('no order');
    return outcome.body.items.map((r) => `${r.status}:${r.reason}`);
  };
  /** An ES print at `price` (decimal string) `afterMs` after the current time. */
  const tick = (price: string, size?: number, afterMs = 0) => {
    kernel.dispatch({ type: 'advance', to_ms: kernel.nowMs + afterMs });
    kernel.dispatch({ type: 'tick', instrument_id: 'ESM6', price, ...(size === undefined ? {} : { size }) });
  };
  const position = () => kernel.internals().positions.position(accountId, 'ESM6');
  return { kernel, accountId, place, order, states, tick, position };
}
