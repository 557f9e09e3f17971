// Model-based test of the order lifecycle (docs/order-lifecycle.md, docs/risk-rules.md#what-a-breach-does and
// docs/risk-rules.md#firm-controls-and-the-order-gate): random
// sequences of place / modify / cancel / OCO link and companion / print / advance / historical fill / firm
// operations (lockout with and without flatten, unlock, flatten, cancel-all) on three instruments of two
// product families (ESM6, NQM6, 6EM6) and three accounts (two roomy, one tight enough to breach), against a
// kernel with a random fill model, checking after every command the invariants the rules imply. OCO groups may
// span instruments; client cancels and modifies may aim at the risk engine's orders, with latencies or without.
// The model (order-model-state.ts) keeps what it saw and an independent FIFO ledger per account and instrument;
// the checks are in order-model-orders.ts, order-model-fills.ts and the event watches fill-watch.ts (positions
// are the published fills, final orders never fill, locked accounts get no client fills) and
// flattening-watch.ts (flattening keeps one sized closing order per open position until flat); the drain at the
// end of a run checks that flattening ends flat (order-model-run.ts).
// Runs: NUM_RUNS by default; PROPSIM_MODEL_RUNS=2000 (`npm run test:model:long`) for a longer search.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { T0, calendar } from '../core/kernel/kernel-harness.js';
import { commandArb, setupArb } from './kernel-command-arbs.js';
import { UNKNOWN_GROUP_ID, UNKNOWN_ORDER_ID, type Resolved } from './kernel-commands.js';
import { newSim } from './kernel-sim.js';
import { eq } from './model-assert.js';
import { ES } from './model-instruments.js';
import { modelRuns } from './model-runs.js';
import { drain, runChecked, step } from './order-model-run.js';
import { WORKING } from './order-model-state.js';

const NUM_RUNS = modelRuns(300);

describe('order lifecycle, model-based (random commands on three instruments, invariants after every command)', () => {
  it('inside one session: statuses, histories, fills, positions, balances, OCO and flattening stay consistent, and flattening ends flat', () => {
    const totals: Record<string, number> = {};
    fc.assert(
      fc.property(
        setupArb,
        fc.array(commandArb(500), { minLength: 1, maxLength: 60, size: 'max' }),
        (setup, commands) => {
          const checked = runChecked(setup, commands);
          drain(checked);
          const seen = { ...checked.model.seen, fillsUnderFirmLockout: checked.model.fills.fillsUnderFirmLockout };
          for (const [key, value] of Object.entries(seen)) totals[key] = (totals[key] ?? 0) + value;
        },
      ),
      { numRuns: NUM_RUNS },
    );
    // Not vacuous: the runs went through risk orders and the client's requests on them, OCO groups across
    // instruments, breaches, locked gates, the exception of a plain lockout, and the drain.
    for (const [key, value] of Object.entries(totals)) expect(value, `runs should include ${key}`).toBeGreaterThan(0);
  });

  it('across the 16:00 CT close: DAY (and unsettled IOC/FOK) orders expire at the close, GTC ones never do, arrivals in the halt are REJECTED (but risk orders wait, and flatten after the reopen)', () => {
    const closeMs = calendar.sessionAt(T0, ES.symbol).closeMs;
    eq(
      closeMs,
      Date.parse('2026-03-10T21:00:00Z'),
      'the harness session (trade date 2026-03-10) closes 16:00 CDT = 21:00Z',
    );
    const reopenMs = Date.parse('2026-03-10T22:00:00Z'); // 17:00 CDT: the session of trade date 2026-03-11 opens
    fc.assert(
      fc.property(
        setupArb,
        fc.array(commandArb(1000), { minLength: 1, maxLength: 40, size: 'max' }),
        (setup, commands) => {
          const checked = runChecked(setup, commands, { startMs: closeMs - 1500, closeMs });
          const { sim, model } = checked;
          // Past the close and past every latency: every order has reached the venue, so only GTC orders may work.
          const end: Resolved = {
            kind: 'advance',
            ms: Math.max(closeMs - sim.kernel.nowMs, 0) + setup.fillModel.latencyMs + 1,
          };
          step(checked, end, 'after the close and every latency');
          for (const id of sim.orderIds) {
            const json = model.orders.get(id)!.json;
            if (json.time_in_force !== 'gtc')
              eq(
                WORKING.has(json.status as string),
                false,
                `${String(json.time_in_force)} order ${id} is not working after the close: only GTC orders live on`,
              );
          }
          // The risk engine's orders waited through the halt; past the 17:00 CT reopen (a session roll) they flatten.
          step(checked, { kind: 'advance', ms: reopenMs - sim.kernel.nowMs }, 'at the reopen');
          drain(checked);
        },
      ),
      { numRuns: Math.ceil(NUM_RUNS / 2) },
    );
  });

  it('the ids used for refusals are unknown to the kernel', () => {
    const sim = newSim({
      fillModel: { latencyMs: 0, cancelLatencyMs: 0, modifyLatencyMs: 0, slippageTicks: 0, limitFill: 'touch' },
      commissionCents: 0,
    });
    eq(sim.kernel.read.order({}, UNKNOWN_ORDER_ID).status, 404, 'the unknown order id answers 404');
    eq(
      sim.kernel.dispatch({
        type: 'add_oco_companion',
        body: { oco_group_id: UNKNOWN_GROUP_ID, order_id: UNKNOWN_ORDER_ID },
      }).status,
      404,
      'the unknown group id answers 404',
    );
  });
});
