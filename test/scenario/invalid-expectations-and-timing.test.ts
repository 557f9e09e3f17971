// Scenario validation of expect steps and expect_status (docs/scenarios.md#expect, #expect_status), of the clock
// (docs/scenarios.md#timing: at, advance, a fill's own time) and of input steps (docs/scenarios.md#input-steps). Each
// refusal names the step, its type and the field.
import { describe } from 'vitest';
import { printInput, refuses, steps } from './scenario-docs.js';

describe('scenario validation: every error names the step, its type and the field', () => {
  refuses([
    [
      'an expect with an unknown field',
      (d) => (steps(d)[3] = { expect: { account: 'alice', bal: '1' } }),
      'steps[3].expect.bal',
      'steps[3] (expect): bal: unknown field for an account expectation; expected one of account_id, max_drawdown_mode, max_drawdown_value',
    ],
    [
      'an expect with two subjects',
      (d) => (steps(d)[3] = { expect: { account: 'alice', order: 'o1', status: 'FILLED' } }),
      'steps[3].expect',
      'steps[3] (expect): expected exactly one subject (account, order or position), got account and order',
    ],
    [
      'an expect with no field to check',
      (d) => (steps(d)[3] = { expect: { order: 'o1' } }),
      'steps[3].expect',
      'steps[3] (expect): expected at least one field to check, one of status, quantity',
    ],
    [
      'an expected balance written as a number',
      (d) => (steps(d)[3] = { expect: { account: 'alice', balance: 50000 } }),
      'steps[3].expect.balance',
      'steps[3] (expect): balance: expected a decimal string with at most 12 decimal places, like "5000.25", got the number 50000 (quote it: "50000")',
    ],
    [
      'an unknown order status',
      (d) => (steps(d)[3] = { expect: { order: 'o1', status: 'DONE' } }),
      'steps[3].expect.status',
      'steps[3] (expect): status: expected one of SUBMITTED, PARTIALLY_FILLED, FILLED, CANCELLED, REJECTED, EXPIRED, got "DONE"',
    ],
    [
      'expect_status on an at step',
      (d) => (steps(d)[0] = { at: '2026-03-02T09:00:00-06:00', expect_status: 409 }),
      'steps[0].expect_status',
      'steps[0] (at): expect_status: not allowed on an at step; only on order, modify, cancel, oco, lockout',
    ],
    [
      'expect_status 418',
      (d) => steps(d).push({ lockout: { account: 'alice' }, expect_status: 418 }),
      'steps[4].expect_status',
      'steps[4] (lockout): expect_status: expected an HTTP status, one of 200, 201, 202, 400, 403, 404, 409, 421, 429, 502, 503, got the number 418',
    ],
    [
      'an at that moves the clock back',
      (d) => steps(d).push({ at: '2026-03-02T08:30:00-06:00' }),
      'steps[4].at',
      'steps[4] (at): expected a time no earlier than the simulated clock at this step (2026-03-02T09:00:00.000-06:00 CT): the clock never moves back, got "2026-03-02T08:30:00-06:00"',
    ],
    [
      'a bad duration',
      (d) => steps(d).push({ advance: '5 minutes' }),
      'steps[4].advance',
      'steps[4] (advance): expected a duration like 250ms, 15s, 30m, 2h or 1d, got "5 minutes"',
    ],
    [
      'a fill in the future',
      (d) =>
        steps(d).push({
          fill: {
            account: 'alice',
            instrument: 'ESM6',
            side: 'buy',
            quantity: 1,
            price: '1',
            at: '2026-03-02T10:00:00-06:00',
          },
        }),
      'steps[4].fill.at',
      'steps[4] (fill): at: expected a time no later than the simulated clock at this step (2026-03-02T09:00:00.000-06:00 CT), got "2026-03-02T10:00:00-06:00"',
    ],
    [
      'an input step of an unknown type',
      (d) => steps(d).splice(1, 0, { input: { time_ms: Date.parse('2026-03-02T15:00:00Z'), type: 'teleport' } }),
      'steps[1].input.type',
      'steps[1] (input): type: expected one of advance, tick, register_firm',
    ],
    [
      'an input step before the clock',
      (d) => steps(d).splice(1, 0, { input: { time_ms: Date.parse('2026-03-02T14:30:00Z'), type: 'advance' } }),
      'steps[1].input.time_ms',
      'steps[1] (input): time_ms: expected a time no earlier than the simulated clock at this step (2026-03-02T09:00:00.000-06:00 CT): the clock never moves back, got the number 1772461800000',
    ],
    [
      'a print input without its data (the hot path takes prints unchecked)',
      (d) => steps(d).splice(1, 0, { input: { time_ms: Date.parse('2026-03-02T15:00:00Z'), type: 'print' } }),
      'steps[1].input.data.instrument',
      'steps[1] (input): data.instrument: expected a GLOBEX symbol (required), got nothing',
    ],
    [
      'a print input of a fraction of a tick',
      (d) => steps(d).splice(1, 0, printInput({ instrument: 'ESM6', price_ticks: 20000.5 })),
      'steps[1].input.data.price_ticks',
      'steps[1] (input): data.price_ticks: expected an integer number of ticks, got the number 20000.5',
    ],
    [
      'a print input of size 0',
      (d) => steps(d).splice(1, 0, printInput({ instrument: 'ESM6', price_ticks: 20000, size: 0 })),
      'steps[1].input.data.size',
      'steps[1] (input): data.size: expected an integer of at least 1, or null for a print without a size limit, got the number 0',
    ],
    [
      'a print input on a symbol spelled otherwise than a journal does (a book of its own)',
      (d) => steps(d).splice(1, 0, printInput({ instrument: 'ESM26', price_ticks: 20000 })),
      'steps[1].input.data.instrument',
      'steps[1] (input): data.instrument: expected the symbol as a journal writes it (ESM6), got "ESM26"',
    ],
  ]);
});
