import { it } from 'vitest';
import { harness, calendar, T0 } from '../core/kernel/kernel-harness.js';
it('repro', () => {
  const closeMs = calendar.sessionAt(T0, 'ESM6').closeMs;
  const h = harness({}, { startMs: closeMs - 3000 });
  const id = h.place({ side: 'buy', type: 'market', quantity: 1, time_in_force: 'ioc' });
  h.kernel.advanceTo(h.kernel.nowMs);
  h.kernel.advanceTo(closeMs + 1);
  console.log(h.order(id).status, h.states(id));
  const g = h.place({ side: 'buy', type: 'limit', limit_price: '4990.00', quantity: 1, time_in_force: 'gtc' });
  h.kernel.advanceTo(h.kernel.nowMs);
  console.log(h.order(g).status, h.states(g));
});
