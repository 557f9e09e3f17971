// Where each fill a step of AccountSim published may come from (docs/risk-rules.md): a historical fill only for an
// accepted recordFill, a client fill only for the order the model placed at that print, a risk fill only toward flat;
// each one is taken into the model's FIFO ledger, its commission and realized P&L checked.
import type { ModelAccount } from './account-model-ledger.js';
import type { Before, Step, StepSim } from './account-model-steps.js';
import { eq, ok } from './model-assert.js';

/** Takes the account's fills published since the last step into the model, checking each against the step. */
export function takeFills(sim: StepSim, i: number, account: ModelAccount, step: Step, before: Before): void {
  const { positions, desk } = sim.kernel.internals();
  const fills = positions.fills(account.id);
  const fresh = fills.slice(account.fillsSeen);
  account.fillsSeen = fills.length;
  for (const f of fresh) {
    const origin = f.orderId === null ? 'historical' : desk.find(f.orderId)!.origin;
    const at = `account ${i} ${origin} fill ${f.side} ${f.quantity} ${f.symbol} @${f.priceTicks} (${step.kind} step)`;
    // docs/risk-rules.md#statuses-and-locks: failed and passed accounts are terminal for trading; only the risk
    // engine's flattening fills may still change their position.
    if (before.status !== 'active')
      eq(origin, 'risk', `${at}: a ${before.status} account never trades again, only the risk engine flattens it`);
    if (origin === 'historical') {
      ok(
        step.kind === 'fill' && step.a === i && step.accepted,
        `${at}: a historical fill appears only for an accepted recordFill of this account`,
      );
      // docs/risk-rules.md#historical-fills: a fill for a failed, passed or locked account is dropped.
      ok(
        before.status === 'active' && before.locks.length === 0,
        `${at}: a historical fill for a locked or inactive account is dropped`,
      );
      sim.seen.historicalFills++;
    } else if (origin === 'client') {
      ok(
        step.kind === 'print' && step.client?.a === i && step.client.orderId === f.orderId,
        `${at}: the only client order that can fill is the one the model placed for this print`,
      );
      // docs/risk-rules.md#the-order-gate: is_locked means order entry is blocked; a client order never fills while
      // any lock is present.
      ok(
        before.locks.length === 0 && before.status === 'active',
        `${at}: a locked (${before.locks.join(',')}) or ${before.status} account receives no client fills`,
      );
      sim.seen.clientFills++;
    } else {
      ok(
        step.kind === 'print' && before.riskWorking > 0,
        `${at}: a risk fill needs a flattening order working before the print`,
      );
      // docs/risk-rules.md#what-a-breach-does, "keeps flattening until the account is flat": never through flat.
      const net = account.netOf(f.symbol);
      const toward = (f.side === 'buy' ? net < 0 : net > 0) && f.quantity <= Math.abs(net);
      ok(toward, `${at}: a flattening fill only takes the position (${net}) toward flat, never through it`);
      sim.seen.riskFills++;
    }
    if (step.kind === 'print') {
      eq(f.symbol, step.symbol, `${at}: a print fills orders of its own instrument`);
      eq(
        f.priceTicks,
        step.ticks,
        `${at}: a venue fill of a market order is at the print (no slippage in this fill model)`,
      );
    }
    eq(f.commissionCents, account.setup.commissionCents * f.quantity, `${at}: commission is charged per contract`);
    const realized = account.fill(f.symbol, f.side, f.quantity, f.priceTicks);
    eq(
      f.realizedCents,
      realized,
      `${at}: realized P&L is the FIFO lots' P&L (docs/order-lifecycle.md#positions-trades-and-lots)`,
    );
  }
}
