// Model-based test of the account risk rules (docs/risk-rules.md), and that the fast path agrees with the account
// machine (docs/architecture.md#xstate-models-lifecycles-not-ticks): random prints, historical fills, market orders
// on three instruments (ESM6, NQM6, 6EM6: two product families, each printing only while its market is open), time
// moves across session rolls and weekends, firm operations (adjust, setDailyLossTrigger, reanchor, lockout with and
// without flatten, unlock, setMaxLossLimit, flatten, cancel-all) and a client's DELETE or PATCH of the risk engine's
// orders (with a drawn cancel and modify latency), against one or two accounts on random risk profiles. After every
// kernel call the kernel must agree with a small model written from the rules (account-model-ledger.ts: FIFO ledger
// per instrument, cash sums, peak, floors, status, locks), the event watches hold (fill-watch.ts,
// flattening-watch.ts), and so do the invariants below; at the end of each run the drain checks that flattening
// ends flat (AccountSim.drain).
// Runs: NUM_RUNS by default; PROPSIM_MODEL_RUNS=2000 (`npm run test:model:long`) for a longer search.
// The property found five kernel bugs (A, A′, B, C, D), all fixed since; their minimal reproductions are kept below
// as regression tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccountCommandType } from '../../src/core/kernel/write/commands.js';
import { Kernel } from '../../src/core/kernel/kernel.js';
import type { Outcome } from '../../src/core/outcome.js';
import { T0, calendar } from '../core/kernel/kernel-harness.js';
import { STARTING_BALANCE_CENTS, SYMBOL, commandArb, setupArb, textCents } from './account-model-commands.js';
import { SEVERITY } from './account-model-ledger.js';
import { AccountSim, bodyOf, eq, ok, type Before, type Step } from './account-model-sim.js';
import { INSTRUMENTS } from './model-instruments.js';
import { openAccount, riskItem } from './model-kernel.js';
import { modelPlan } from './model-plans.js';
import { modelRuns } from './model-runs.js';

const NUM_RUNS = modelRuns(300);
const MAX_COMMANDS = 40;

function describeStep(step: Step): string {
  switch (step.kind) {
    case 'print':
      return `print ${step.symbol} @${step.ticks}${step.client ? ` with a client order of account ${step.client.a}` : ''}`;
    case 'fill':
      return `historical fill of account ${step.a}`;
    case 'time':
      return step.rolled ? 'session roll' : 'time move';
    case 'op':
      return `${step.op} on account ${step.a}${step.shift ? ` (${step.shift.amountCents}, shift ${step.shift.floors})` : ''}${step.accepted ? '' : ' (refused)'}`;
  }
}

/** The invariants of one account after one step, from the kernel's own state and the risk-state item. */
function checkInvariants(sim: AccountSim, i: number, step: Step, before: Before, at: string): void {
  const model = sim.accounts[i]!;
  const risk = sim.risk(i);
  const json = riskItem(sim.kernel, risk.id);
  const money = (field: string) => textCents(json[field] as string);
  const equity = money('equity');
  const trigger = money('max_loss_limit_trigger');
  const balance = money('balance');
  const daily = json.daily_loss_limit_trigger === undefined ? undefined : money('daily_loss_limit_trigger');
  const status = json.account_status as string;
  const locks = risk.locks as readonly string[];
  const hasDailyLock = locks.includes('daily_loss_breach');

  // 1. docs/risk-rules.md#drawdown-modes: peaks never fall, so the trigger never falls; a shifted adjust moves it by
  //    exactly the amount (headroom unchanged, docs/risk-rules.md#cash-adjust); a max-loss-limit change recomputes
  //    it and may lower it.
  const ownOp = step.kind === 'op' && step.a === i ? step : undefined;
  if (ownOp?.op === 'adjust_balance' && ownOp.shift!.floors) {
    eq(
      trigger,
      before.triggerCents + ownOp.shift!.amountCents,
      `${at}: a floor-shifting adjust moves the max-loss trigger by exactly the amount`,
    );
  } else if (!(ownOp?.op === 'set_max_loss_limit' && ownOp.accepted)) {
    ok(
      trigger >= before.triggerCents,
      `${at}: the max-loss trigger never falls (${before.triggerCents} → ${trigger}) but by an adjust or a max-loss-limit change`,
    );
  }

  // 2. docs/risk-rules.md#the-ceiling: a capped trailing trigger never exceeds the ceiling = starting balance +
  //    limit (+ shifts).
  if (model.setup.mode !== 'static' && model.limitCents !== undefined) {
    const ceiling = money('max_drawdown_lock_ceiling');
    eq(
      ceiling,
      STARTING_BALANCE_CENTS + model.limitCents + model.shiftCents,
      `${at}: the ceiling is starting balance + max_drawdown_limit + floor-shifting adjustments`,
    );
    ok(trigger <= ceiling, `${at}: a capped trailing trigger (${trigger}) never exceeds the ceiling (${ceiling})`);
  } else {
    ok(
      json.max_drawdown_limit === undefined && json.max_drawdown_lock_ceiling === undefined,
      `${at}: limit and ceiling are absent unless a trailing mode is capped`,
    );
  }

  // 3. docs/risk-rules.md#statuses-and-locks: failed and passed are terminal (their fills are checked as they arrive,
  //    in the sim); the first print of an instrument after a breach, a pass or a flatten flattens the account in it
  //    (risk orders arrive at once here), so a print leaves that instrument flat.
  if (before.status === 'failed') {
    eq(status, 'failed', `${at}: a max-loss breach is permanent`);
    ok(locks.includes('max_loss_breach'), `${at}: a failed account stays locked with max_loss_breach`);
  }
  if (before.status === 'passed') eq(status, 'passed', `${at}: passed is terminal for trading`);
  if (step.kind === 'print') {
    const flattening =
      before.status !== 'active' ||
      before.locks.includes('daily_loss_breach') ||
      (before.riskIn.has(step.symbol) && step.client?.a !== i);
    if (flattening)
      eq(
        sim.kernelNet(i, step.symbol),
        0,
        `${at}: an account being flattened (${before.status}, locks ${before.locks.join(',') || 'none'}, risk orders in ${[...before.riskIn].join(',') || 'none'}) is flat in ${step.symbol} after its next print`,
      );
  }

  //    The risk engine's working closing orders never add up to more than the position, on its closing side
  //    (docs/risk-rules.md#what-a-breach-does, "until the account is flat"): else the next print takes the account
  //    through flat.
  for (const { symbol } of INSTRUMENTS) {
    const net = sim.kernelNet(i, symbol);
    const closing = sim.riskOrders(i, symbol);
    const closingTotal = closing.reduce((sum, q) => sum + q, 0);
    ok(
      closing.every((q) => Math.sign(q) === -Math.sign(net)) && Math.abs(closingTotal) <= Math.abs(net),
      `${at}: working closing orders [${closing.join(',')}] never exceed the ${symbol} position ${net}`,
    );
  }

  // 5. docs/risk-rules.md#balance-and-equity: balance = starting balance + Σ realized − Σ commissions + Σ adjustments,
  //    in exact cents.
  let realized = 0;
  let commissions = 0;
  for (const f of sim.kernel.internals().positions.fills(model.id)) {
    realized += f.realizedCents;
    commissions += f.commissionCents;
  }
  eq(
    balance,
    STARTING_BALANCE_CENTS + realized - commissions + model.adjustmentsCents,
    `${at}: balance is the cash ledger of the account's fills and adjustments`,
  );

  // 6. docs/risk-rules.md#balance-and-equity: realized_day_pnl is net of commissions, so with no adjustment since the
  //    last roll or reanchor balance = start_of_day_balance + realized_day_pnl. A floor-shifting adjust moves the
  //    anchor with the balance, so only adjustments made with shift_floors false stand between them.
  eq(
    balance,
    money('start_of_day_balance') + money('realized_day_pnl') + model.unshiftedSinceAnchorCents,
    `${at}: balance = start_of_day_balance + realized_day_pnl (+ unshifted adjustments since the anchor)`,
  );

  // 7. Every change of equity or of a floor is followed by a mark of an active account (prints, fills, rolls,
  //    adjust, setDailyLossTrigger, reanchor, setMaxLossLimit), so after every step:
  //    - active ⇒ equity > max-loss trigger;
  //    - active with a daily floor ⇒ equity > daily trigger, or the daily_loss_breach lock is already there;
  //    - in the step that fails an account, equity ≤ max-loss trigger (nothing moves either after that mark);
  //    - in the step that adds daily_loss_breach, equity ≤ daily trigger and the account is still active (one
  //      mark crossing both floors fails it instead: max loss wins).
  //    The converses do not hold: after the breach an adjust, setDailyLossTrigger, reanchor, a roll or the
  //    flattening fills move equity or the floors, and neither lock is lifted by that (only a roll lifts
  //    daily_loss_breach, docs/risk-rules.md#daily-loss; failed is permanent).
  if (status === 'active')
    ok(equity > trigger, `${at}: an active account's equity ${equity} is above its max-loss trigger ${trigger}`);
  if (status === 'active' && daily !== undefined)
    ok(
      equity > daily || hasDailyLock,
      `${at}: equity ${equity} at or below the daily trigger ${daily} means a daily_loss_breach lock`,
    );
  if (before.status === 'active' && status === 'failed') {
    ok(
      equity <= trigger,
      `${at}: an account fails only with equity ${equity} at or below its max-loss trigger ${trigger}`,
    );
    ok(
      !hasDailyLock || before.locks.includes('daily_loss_breach'),
      `${at}: a mark that crosses both floors is a max-loss breach only`,
    );
  }
  if (hasDailyLock && !before.locks.includes('daily_loss_breach')) {
    ok(
      daily !== undefined && equity <= daily,
      `${at}: a daily_loss_breach needs equity ${equity} at or below the daily trigger ${daily}`,
    );
    eq(status, 'active', `${at}: a daily breach is a lock, not a status`);
  }

  // 8. docs/risk-rules.md#statuses-and-locks: is_locked ⇔ lockout_reason present; lockout_reason is the most severe
  //    lock present.
  eq(json.is_locked, locks.length > 0, `${at}: is_locked is true while any lock is present`);
  eq(json.lockout_reason !== undefined, json.is_locked, `${at}: lockout_reason is present exactly when locked`);
  eq(
    json.lockout_reason,
    SEVERITY.find((lock) => locks.includes(lock)),
    `${at}: lockout_reason names the most severe lock of ${locks.join(',')}`,
  );
}

/** The kernel agrees with the model (decision 3: the fast-path floors and the machine's status and locks). */
function checkAgreement(sim: AccountSim, i: number, at: string): void {
  const model = sim.accounts[i]!;
  const risk = sim.risk(i);
  const json = riskItem(sim.kernel, risk.id);
  const money = (field: string) => textCents(json[field] as string);
  for (const { symbol } of INSTRUMENTS)
    eq(sim.kernelNet(i, symbol), model.netOf(symbol), `${at}: the ${symbol} net position follows the fills`);
  eq(money('balance'), model.balanceCents, `${at}: balance`);
  eq(money('equity'), model.equityCents(sim.lastPrintTicks), `${at}: equity = balance + unrealized at the last print`);
  eq(risk.realizedCents, model.realizedCents, `${at}: Σ realized`);
  eq(risk.commissionCents, model.commissionCents, `${at}: Σ commissions`);
  eq(risk.adjustmentsCents, model.adjustmentsCents, `${at}: Σ adjustments`);
  eq(money('highest_realized_balance'), model.peakCents, `${at}: the peak the ${model.setup.mode} mode follows`);
  eq(
    money('max_loss_limit_trigger'),
    model.triggerCents(),
    `${at}: max-loss trigger (${model.setup.mode}, limit ${model.limitCents})`,
  );
  eq(
    json.daily_loss_limit_trigger === undefined ? undefined : money('daily_loss_limit_trigger'),
    model.dailyTriggerCents,
    `${at}: daily-loss trigger`,
  );
  eq(money('start_of_day_balance'), model.startOfDayCents, `${at}: start_of_day_balance`);
  eq(money('realized_day_pnl'), model.dayCents, `${at}: realized_day_pnl`);
  eq(money('realized_week_pnl'), model.weekCents, `${at}: realized_week_pnl`);
  eq(json.account_status, model.status, `${at}: status`);
  eq(risk.locks.join(','), SEVERITY.filter((lock) => model.locks.has(lock)).join(','), `${at}: the lock set`);
}

function verify(sim: AccountSim, step: Step, before: readonly Before[]): void {
  sim.accounts.forEach((_, i) => {
    const at = `account ${i} (${sim.accounts[i]!.setup.mode}) after ${describeStep(step)} at ${new Date(sim.nowMs).toISOString()}`;
    checkInvariants(sim, i, step, before[i]!, at);
    checkAgreement(sim, i, at);
  });
}

describe('account risk rules: the kernel against a model (docs/risk-rules.md)', () => {
  it('every invariant holds after every step of random prints, fills, orders, rolls and operations', () => {
    const totals: Record<string, number> = {};
    fc.assert(
      fc.property(
        setupArb,
        fc.array(commandArb, { minLength: 5, maxLength: MAX_COMMANDS, size: 'max' }),
        (setup, commands) => {
          const sim = new AccountSim(setup, verify);
          for (const command of commands) sim.run(command);
          sim.drain();
          for (const [key, value] of Object.entries(sim.seen)) totals[key] = (totals[key] ?? 0) + value;
        },
      ),
      { numRuns: NUM_RUNS },
    );
    // Not vacuous: the runs went through breaches, passes, rolls and every kind of fill.
    for (const key of [
      'rolls',
      'weeklyRolls',
      'failed',
      'passed',
      'dailyBreaches',
      'riskFills',
      'clientFills',
      'historicalFills',
      'riskOrderRequests',
      'drainRounds',
      'multiInstrument',
    ]) {
      expect(totals[key], `runs should include ${key}`).toBeGreaterThan(0);
    }
  });
});

// ---- bugs the property found (all fixed since), each as a minimal reproduction ----

function oneAccount(plan = modelPlan()) {
  const kernel = new Kernel({ startMs: T0, seed: 1, calendar, journal: false });
  const accountId = openAccount(kernel, plan);
  const { positions, accounts, desk } = kernel.internals();
  const net = () => positions.position(accountId, SYMBOL)?.netQuantity ?? 0;
  const tick = (price: string) => bodyOf(kernel.dispatch({ type: 'tick', instrument_id: SYMBOL, price }));
  /** A historical fill of `quantity` ESM6 at `price` (docs/risk-rules.md#historical-fills). */
  const fill = (side: 'buy' | 'sell', quantity: number, price: string) =>
    bodyOf(
      kernel.dispatch({ type: 'record_fill', account_id: accountId, instrument_id: SYMBOL, side, quantity, price }),
    );
  /** A firm-control command on the account, its answer's body as a plain record. */
  const control = (type: AccountCommandType, body?: unknown): Outcome<Record<string, unknown>> => {
    const outcome = kernel.dispatch({ type, account_id: accountId, ...(body === undefined ? {} : { body }) });
    return outcome.ok ? { ...outcome, body: { ...outcome.body } } : outcome;
  };
  const advance = (toMs: number) => bodyOf(kernel.dispatch({ type: 'advance', to_ms: toMs }));
  tick('5000');
  return { kernel, accountId, net, tick, fill, control, advance, desk, account: accounts.get(accountId) };
}

describe('flattening until flat, and only until flat (docs/risk-rules.md#what-a-breach-does; found by the property above)', () => {
  // Bug A (fixed): cancelAndFlatten sent a closing order for the whole position even with its own closing order
  // working, so both filled at the next print and the position went through flat.
  it('docs/risk-rules.md#flatten: flatten twice before a print leaves the account flat, not reversed', () => {
    const { net, tick, fill, control } = oneAccount();
    fill('buy', 2, '5000');
    expect(bodyOf(control('flatten')).closed_positions, 'one closing order for the open position').toBe(1);
    expect(
      bodyOf(control('flatten')).closed_positions,
      'its closing order is already working: nothing more to send',
    ).toBe(0);
    tick('5001');
    expect(net(), 'one print after a flatten the account is flat, not reversed to -2').toBe(0);
  });

  it('a breach while a flatten is working sends no second closing order', () => {
    const { net, account, tick, fill, control } = oneAccount();
    fill('buy', 1, '5000');
    control('flatten');
    control('adjust_balance', { amount: '-2500.00', shift_floors: false });
    expect(account.status).toBe('failed');
    tick('5000');
    expect(net(), 'the flatten’s sell 1 alone closes the position (not -1)').toBe(0);
  });

  // Bug B (fixed): a closing order sent while the market was closed ended REJECTED market_closed and was never
  // sent again, so an account that breached during the halt kept its position for ever.
  it('an account that breaches during the maintenance halt is flattened once the market reopens', () => {
    const { net, account, tick, fill, control, advance } = oneAccount();
    fill('buy', 1, '5000');
    advance(Date.parse('2026-03-10T21:30:00Z')); // Tuesday 16:30 CDT: the daily halt
    control('adjust_balance', { amount: '-3000.00', shift_floors: false });
    expect(account.status).toBe('failed');
    advance(Date.parse('2026-03-10T22:30:00Z')); // 17:30 CDT: open again
    tick('5000');
    expect(net(), 'the closing order waited for the reopen and filled at its first print').toBe(0);
  });

  // Bug C (fixed): OrderDesk never filed orders under their account, so workingOrdersOf was always empty:
  // breaches, flatten and cancel-all cancelled no client order, and ensureFlattening, blind to its own working
  // closing order, sent a second one when a breach came at the account's own fill.
  it('a breach cancels the resting client orders, which then never fill', () => {
    const { kernel, accountId, net, account, tick, control, desk } = oneAccount();
    const placed = kernel.dispatch({
      type: 'place_order',
      body: {
        account_id: accountId,
        instrument_id: SYMBOL,
        side: 'buy',
        type: 'limit',
        limit_price: '4990',
        quantity: 1,
        time_in_force: 'gtc',
      },
    });
    const orderId = bodyOf(placed).order_id;
    control('adjust_balance', { amount: '-2500.00', shift_floors: false });
    expect(account.status).toBe('failed');
    tick('4990');
    expect(desk.get(orderId).status, 'the breach cancelled it').toBe('CANCELLED');
    expect(net(), 'a failed account opens no position').toBe(0);
  });

  it('a historical fill that breaches sends one closing order, not two', () => {
    const plan = modelPlan({ risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '250' } });
    const { net, account, tick, fill } = oneAccount(plan);
    // Short 2 at 4997.50, marked at the 5000 print: equity 49750.00 touches the 49750.00 trigger at this fill.
    fill('sell', 2, '4997.50');
    expect(account.status).toBe('failed');
    tick('5000');
    expect(net(), 'one print after the breach the account is flat (not long 2)').toBe(0);
  });

  // Bug A′ (fixed): a closing order was sized when sent and never re-sized or withdrawn. A plain flatten locks
  // nothing, so a historical fill is still accepted (docs/risk-rules.md#historical-fills); when it closed the
  // position itself, the closing order stayed working and then opened the opposite position, which nothing
  // flattened (docs/risk-rules.md#flatten: flatten "keeps going until the account is flat").
  it('fixed bug A′: a historical fill that closes the position while a flatten works leaves the account flat', () => {
    const { net, tick, fill, control } = oneAccount();
    fill('buy', 1, '5000');
    control('flatten');
    fill('sell', 1, '5000');
    tick('5000');
    tick('5000');
    expect(net(), 'the flatten never opens a position (got short 1, for good)').toBe(0);
  });
});

// Bug D (fixed): the floor index stopped filing the equity-high threshold of a capped realtime_equity account once
// its trigger reached the ceiling, so prints no longer raised its peak and a later cap change started from the
// stale peak.
describe('realtime_equity with a cap (docs/risk-rules.md#the-ceiling; found by the property above)', () => {
  it('a capped realtime_equity account keeps following equity highs at prints', () => {
    const plan = modelPlan({
      risk_profile: { max_drawdown_mode: 'realtime_equity', max_drawdown_value: '250', max_drawdown_limit: '0' },
    });
    const { kernel, accountId, tick, fill, control } = oneAccount(plan);
    fill('buy', 1, '5000');
    tick('5005'); // equity 50250: trigger min(50000, ceiling 50000)
    tick('5010'); // equity 50500: a new high
    tick('5006'); // equity 50300
    control('set_max_loss_limit', { max_drawdown_limit: null });
    const item = riskItem(kernel, accountId);
    expect(item.highest_realized_balance, 'the highest equity on any mark').toBe('50500.00');
    expect(item.max_loss_limit_trigger, 'uncapped: peak 50500 − 250').toBe('50250.00');
  });
});
