// A kernel on the bundled calendar with one ES account, and shorthands for the tests.
import { GlobexCalendar } from '../../../src/core/calendar/index.js';
import { Kernel, type KernelOptions } from '../../../src/core/kernel/kernel.js';
import type { FillModel } from '../../../src/core/orders/fill-model.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { testPlan } from './test-plans.js';

export const calendar = new GlobexCalendar(loadHolidayFile());
/** Tuesday 2026-03-10 09:00 CDT: mid-session for every product. */
export const T0 = Date.parse('2026-03-10T14:00:00Z');

export function harness(fillModel: Partial<FillModel> = {}, options: Partial<KernelOptions> = {}) {
  const kernel = new Kernel({ startMs: T0, seed: 1, calendar, fillModel, ...options });
  const opened = kernel.openAccount({ plan: testPlan() });
  if (!opened.ok) throw new Error('account');
  const accountId = opened.body.account_id as string;
  const place = (fields: Record<string, unknown>) => {
    const outcome = kernel.placeOrder({
      account_id: accountId,
      instrument_id: 'ESM6',
      time_in_force: 'day',
      ...fields,
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
    return outcome.body.order_id as string;
  };
  const order = (id: string) => {
    const outcome = kernel.getOrder(id);
    if (!outcome.ok) throw new Error('no order');
    return outcome.body;
  };
  const states = (id: string) => {
    const outcome = kernel.getOrderStates(id);
    if (!outcome.ok) throw new Error('no order');
    return outcome.body.map((r) => `${r.status}:${r.reason}`);
  };
  /** An ES print at `price` (decimal string) `afterMs` after the current time. */
  const tick = (price: string, size?: number, afterMs = 0) => {
    kernel.advanceTo(kernel.nowMs + afterMs);
    kernel.printInput('ESM6', price, size);
  };
  const position = () => kernel.positions.position(accountId, 'ESM6');
  return { kernel, accountId, place, order, states, tick, position };
}
