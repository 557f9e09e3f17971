// Scenario validation of the steps (docs/scenarios.md#steps): one step key a step; order, tick, modify and oco steps
// (prices, quantities, instruments, account aliases, the refs that link them) and firm-control steps. Each refusal
// names the step, its type and the field.
import { describe } from 'vitest';
import { orderBody, refuses, steps } from './scenario-docs.js';

describe('scenario validation: every error names the step, its type and the field', () => {
  refuses([
    [
      'an unknown step key',
      (d) => steps(d).splice(1, 0, { wait: '5m' }),
      'steps[1].wait',
      'steps[1]: wait: unknown step key; expected one of at, advance, tick',
    ],
    [
      'two step keys in one step',
      (d) => (steps(d)[1] = { at: '2026-03-02T10:00:00-06:00', advance: '1m' }),
      'steps[1]',
      'steps[1]: expected exactly one step key (at, advance, tick, fill, order, modify, cancel, oco, lockout, unlock, flatten, adjust, daily_loss_trigger, reanchor, max_loss_limit, expect, input), got at and advance',
    ],
    [
      'a limit order without limit_price',
      (d) => delete orderBody(d).limit_price,
      'steps[2].order.limit_price',
      'steps[2] (order): limit_price: expected a decimal string (a limit order needs limit_price), got nothing',
    ],
    [
      'a market order with a limit_price',
      (d) => (orderBody(d).type = 'market'),
      'steps[2].order.limit_price',
      'steps[2] (order): limit_price: expected no limit_price on a market order (only limit and stop_limit orders take one), got "4999.75"',
    ],
    [
      'a stop order without stop_price',
      (d) => Object.assign(orderBody(d), { type: 'stop', limit_price: undefined }),
      'steps[2].order.stop_price',
      'steps[2] (order): stop_price: expected a decimal string (a stop order needs stop_price), got nothing',
    ],
    [
      'quantity 0',
      (d) => (orderBody(d).quantity = 0),
      'steps[2].order.quantity',
      'steps[2] (order): quantity: expected an integer of at least 1, got the number 0',
    ],
    [
      'quantity 1.5',
      (d) => (orderBody(d).quantity = 1.5),
      'steps[2].order.quantity',
      'steps[2] (order): quantity: expected an integer of at least 1, got the number 1.5',
    ],
    [
      'quantity as a string',
      (d) => (orderBody(d).quantity = '1'),
      'steps[2].order.quantity',
      'steps[2] (order): quantity: expected an integer of at least 1, got "1"',
    ],
    [
      'a limit price that is not a decimal',
      (d) => (orderBody(d).limit_price = '4999,75'),
      'steps[2].order.limit_price',
      'steps[2] (order): limit_price: expected a decimal string with at most 9 decimal places, like "5000.25", got "4999,75"',
    ],
    [
      'a price written as a YAML number',
      (d) => (steps(d)[1] = { tick: { instrument: 'ESM6', price: 5000.25 } }),
      'steps[1].tick.price',
      'steps[1] (tick): price: expected a decimal string with at most 9 decimal places, like "5000.25", got the number 5000.25 (quote it: "5000.25")',
    ],
    [
      'a tick on an unknown root',
      (d) => (steps(d)[1] = { tick: { instrument: 'XXM6', price: '1' } }),
      'steps[1].tick.instrument',
      'steps[1] (tick): instrument: expected a GLOBEX symbol like ESM6 or a bare root like ES: instrument "XXM6": unknown root "XX"',
    ],
    [
      'an order on an unknown root, like a tick',
      (d) => (orderBody(d).instrument = 'ZZZ9'),
      'steps[2].order.instrument',
      'steps[2] (order): instrument: expected a GLOBEX symbol like ESM6 or a bare root like ES: instrument "ZZZ9": unknown root "ZZ"; known roots: ES MES',
    ],
    [
      'a tick price too large to be exact in integer ticks',
      (d) => (steps(d)[1] = { tick: { instrument: 'ESM6', price: '99999999999999999999999.25' } }),
      'steps[1].tick.price',
      'steps[1] (tick): price: expected a price below 2^53 ticks of 0.25, got "99999999999999999999999.25"',
    ],
    [
      'an unknown account alias',
      (d) => (orderBody(d).account = 'bob'),
      'steps[2].order.account',
      'steps[2] (order): account: expected an account alias declared under accounts ("alice"), got "bob"',
    ],
    [
      'an unknown account alias among many: the first ten are listed, and how many there are',
      (d) => {
        d.accounts = Array.from({ length: 1200 }, (_, i) => ({ alias: `a${i}`, plan: 'eval-50k' }));
        orderBody(d).account = 'bob';
      },
      'steps[2].order.account',
      'steps[2] (order): account: expected an account alias declared under accounts ("a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", … (1,200 in all)), got "bob"',
    ],
    [
      'a modify of an unknown ref',
      (d) => steps(d).push({ modify: { ref: 'o9', quantity: 2 } }),
      'steps[4].modify.ref',
      'steps[4] (modify): ref: expected the ref of an order placed by an earlier step (placed so far: "o1"), got "o9"',
    ],
    [
      'a modify before its order',
      (d) => steps(d).splice(2, 0, { modify: { ref: 'o1', quantity: 2 } }),
      'steps[2].modify.ref',
      'steps[2] (modify): ref: expected the ref of an order placed by an earlier step ("o1" is placed later, by steps[3]), got "o1"',
    ],
    [
      'a modify that changes nothing',
      (d) => steps(d).push({ modify: { ref: 'o1' } }),
      'steps[4].modify',
      'steps[4] (modify): expected at least one change: quantity, limit_price or stop_price',
    ],
    [
      'a duplicate order ref',
      (d) => steps(d).push({ order: { ...orderBody(d) } }),
      'steps[4].order.ref',
      'steps[4] (order): ref: expected a ref no earlier order step uses (steps[2] places "o1"), got "o1"',
    ],
    [
      'an oco of one order in a new group',
      (d) => steps(d).push({ oco: { group: 'g', orders: ['o1'] } }),
      'steps[4].oco.orders',
      'steps[4] (oco): orders: expected at least 2 order refs to link a new group "g"',
    ],
    [
      'an adjust of zero',
      (d) => steps(d).push({ adjust: { account: 'alice', amount: '0' } }),
      'steps[4].adjust.amount',
      'steps[4] (adjust): amount: expected a decimal string other than zero, got "0"',
    ],
    [
      'a reason_code over 24 characters',
      (d) => steps(d).push({ reanchor: { account: 'alice', reason_code: 'x'.repeat(25) } }),
      'steps[4].reanchor.reason_code',
      'steps[4] (reanchor): reason_code: expected a string of 1 to 24 characters',
    ],
    [
      'a missing reason_code on a trigger',
      (d) => steps(d).push({ daily_loss_trigger: { account: 'alice', daily_loss_limit_trigger: '49500' } }),
      'steps[4].daily_loss_trigger.reason_code',
      'steps[4] (daily_loss_trigger): reason_code: expected a reason code (required), got nothing',
    ],
    [
      'an unknown key in a firm-control step',
      (d) => steps(d).push({ unlock: { account: 'alice', why: 'x' } }),
      'steps[4].unlock.why',
      'steps[4] (unlock): why: unknown key; expected one of account',
    ],
  ]);
});
