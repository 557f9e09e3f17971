// The client's trades of the account model as steps of AccountSim: a market order placed at zero latency (refused at
// the venue when the account is locked, not active or its market closed) and filled at the next print, and a
// historical fill (docs/risk-rules.md#historical-fills), booked or dropped.
import type { Side } from './account-model-commands.js';
import type { StepSim } from './account-model-steps.js';
import { eq } from './model-assert.js';
import { priceOf, type ModelInstrument } from './model-instruments.js';
import { bodyOf } from './model-kernel.js';

/** One trade of account i as a step: `quantity` contracts of `instrument` bought or sold at `ticks`. */
type TradeStep = (
  sim: StepSim,
  i: number,
  instrument: ModelInstrument,
  side: Side,
  quantity: number,
  ticks: number,
) => void;

/** Account i's market order, placed and (its market open) filled at a print at `ticks`: one step. */
export const marketOrder: TradeStep = (sim, i, instrument, side, quantity, ticks) => {
  const before = sim.snapshot();
  const account = sim.accounts[i]!;
  const placed = sim.kernel.dispatch({
    type: 'place_order',
    body: {
      account_id: account.id,
      instrument_id: instrument.symbol,
      side,
      type: 'market',
      quantity,
      time_in_force: 'day',
    },
  });
  eq(placed.status, 202, 'POST /v1/orders answers 202 for a well-formed order');
  const orderId = bodyOf(placed).order_id;
  const { desk } = sim.kernel.internals();
  const open = sim.marketOpen(instrument);
  const accepted = open && account.status === 'active' && account.locks.size === 0;
  // Zero latency: the order has reached the venue; the gate refused it when locked, inactive or closed.
  eq(
    desk.get(orderId).status,
    accepted ? 'SUBMITTED' : 'REJECTED',
    `a client order is refused at the venue exactly when the account is locked, not active or the market closed`,
  );
  if (open) sim.print(instrument, ticks, { a: i, orderId, accepted }, before);
  else sim.finish({ kind: 'time', rolled: false }, before);
  eq(
    desk.get(orderId).status,
    accepted ? 'FILLED' : 'REJECTED',
    'an accepted market order fills at the next print, in full',
  );
};

/** A historical fill for account i at `ticks`, booked or dropped: one step. */
export const historicalFill: TradeStep = (sim, i, instrument, side, quantity, ticks) => {
  const before = sim.snapshot();
  const account = sim.accounts[i]!;
  const outcome = sim.kernel.dispatch({
    type: 'record_fill',
    account_id: account.id,
    instrument_id: instrument.symbol,
    side,
    quantity,
    price: priceOf(instrument, ticks),
  });
  const accepted = account.status === 'active' && account.locks.size === 0;
  eq(
    outcome.status,
    accepted ? 201 : 200,
    'a historical fill is booked (201) for an active unlocked account, dropped (200) otherwise (docs/risk-rules.md#historical-fills)',
  );
  if (!accepted) {
    const body = bodyOf(outcome);
    eq('dropped' in body && body.dropped, true, 'a dropped fill says so');
  }
  sim.finish({ kind: 'fill', a: i, accepted }, before, () => sim.count(account.mark(sim.lastPrintTicks)));
};
