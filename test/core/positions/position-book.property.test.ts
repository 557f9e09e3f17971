import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideHalfEven } from '../../../src/core/money.js';
import { lotPnlMills, pricingOf, sideSign, type Execution, type Side } from '../../../src/core/positions/index.js';
import { newBook } from './executions.js';

interface Step {
  side: Side;
  quantity: number;
  offsetTicks: number;
}

const step = fc.record({
  side: fc.constantFrom<Side>('buy', 'sell'),
  quantity: fc.integer({ min: 1, max: 5 }),
  offsetTicks: fc.integer({ min: -10, max: 10 }),
});

/** Reference model of trades: split the net-position path at each return to (or crossing of) zero. */
function referenceTrades(steps: readonly Step[]): { side: 'long' | 'short'; maxQuantity: number }[] {
  const trades: { side: 'long' | 'short'; maxQuantity: number }[] = [];
  let net = 0;
  for (const s of steps) {
    const next = net + sideSign(s.side) * s.quantity;
    const crossed = net !== 0 && Math.sign(next) !== Math.sign(net);
    if ((net === 0 || crossed) && next !== 0) trades.push({ side: next > 0 ? 'long' : 'short', maxQuantity: 0 });
    const current = trades[trades.length - 1];
    if (current && next !== 0) current.maxQuantity = Math.max(current.maxQuantity, Math.abs(next));
    net = next;
  }
  return trades;
}

// ES ticks are $12.50 = 12500 mills (whole cents: no rounding at all); ZN and 6E ticks are 15625 and 6250 mills
// (ZN lots can land on half cents). Base prices: ES 5000.00, ZN 110.000000, 6E 1.09435.
describe.each([
  ['ESM6', 20_000],
  ['ZNM6', 7_040],
  ['6EH4', 21_887],
])('positions: random fill sequences on %s (model)', (symbol, baseTicks) => {
  const pricing = pricingOf(symbol);

  it('docs/order-lifecycle.md#positions-trades-and-lots: net = Σ signed fills, open lots = |net| on one side, realized = Σ lots, realized + unrealized = cash flow', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: -10, max: 10 }),
        (steps, markOffset) => {
          const book = newBook();
          const executions: Execution[] = steps.map((s, i) => ({
            executionId: `x${i}`,
            orderId: null,
            accountId: 'acct',
            symbol,
            side: s.side,
            quantity: s.quantity,
            priceTicks: baseTicks + s.offsetTicks,
            occurredAtMs: 1_000 * i,
            tradeDate: '2026-03-09',
            commissionCents: 0,
          }));
          for (const e of executions) book.applyFill(e);
          const markTicks = baseTicks + markOffset;
          book.markPrice(symbol, markTicks);
          const position = book.position('acct', symbol)!;

          const net = executions.reduce((sum, e) => sum + sideSign(e.side) * e.quantity, 0);
          expect(position.netQuantity, 'net = Σ signed fill quantities').toBe(net);
          expect(
            position.openLots.reduce((sum, lot) => sum + lot.quantity, 0),
            'Σ open lot quantities = |net|',
          ).toBe(Math.abs(net));
          const openSide = net > 0 ? 'buy' : 'sell';
          for (const lot of position.openLots) {
            expect(
              executions.find((e) => e.executionId === lot.executionId)?.side,
              'every open lot was opened on the position’s side',
            ).toBe(openSide);
          }

          const lots = book.trades('acct').flatMap((t) => t.lots);
          const lotCentsSum = lots.reduce((sum, lot) => sum + lot.realizedCents, 0);
          expect(position.realizedCents, 'position realized = Σ lot realized').toBe(lotCentsSum);
          expect(
            book.fills('acct').reduce((sum, f) => sum + f.realizedCents, 0),
            'Σ fill realized = Σ lot realized',
          ).toBe(lotCentsSum);
          for (const trade of book.trades('acct')) {
            expect(trade.realizedCents, 'trade realized = Σ its lots').toBe(
              trade.lots.reduce((sum, lot) => sum + lot.realizedCents, 0),
            );
          }

          // Exact relation, in mills before rounding: Σ lot P&L + open lots' P&L at M = Σ −signed qty × price + net ×
          // M.
          const lotMills = lots.map((lot) =>
            lotPnlMills(pricing, lot.side, lot.openPriceTicks, lot.closePriceTicks, lot.quantity),
          );
          const openSign = net > 0 ? 1 : -1;
          const unrealizedMills = position.openLots.reduce(
            (sum, lot) => sum + openSign * (markTicks - lot.priceTicks) * lot.quantity * pricing.tickValueMills,
            0,
          );
          const cashFlowTicks =
            executions.reduce((sum, e) => sum - sideSign(e.side) * e.quantity * e.priceTicks, 0) + net * markTicks;
          const cashFlowMills = cashFlowTicks * pricing.tickValueMills;
          expect(
            lotMills.reduce((a, b) => a + b, 0) + unrealizedMills,
            'exact mills: lots + open lots = cash flow',
          ).toBe(cashFlowMills);

          // Rounding: each lot half-even on its own, unrealized once per position; so the rounded total is within
          // half a cent (5 mills) per lot plus half a cent for the position of the cash flow — and exact for ES.
          lots.forEach((lot, i) =>
            expect(lot.realizedCents, 'lot cents = its mills rounded half-even').toBe(divideHalfEven(lotMills[i]!, 10)),
          );
          expect(position.unrealizedCents, 'unrealized = open lots’ mills rounded once').toBe(
            divideHalfEven(unrealizedMills, 10),
          );
          const totalMills = (position.realizedCents + position.unrealizedCents) * 10;
          expect(
            Math.abs(totalMills - cashFlowMills),
            'within the per-lot and per-position half cents',
          ).toBeLessThanOrEqual(5 * (lots.length + 1));
          if (pricing.tickValueMills % 10 === 0) expect(totalMills, 'whole-cent ticks: exact').toBe(cashFlowMills);

          const reference = referenceTrades(steps);
          const trades = book.trades('acct');
          expect(
            trades.map((t) => [t.side, t.maxQuantity]),
            'trades split at flat and at reversals',
          ).toEqual(reference.map((t) => [t.side, t.maxQuantity]));
          expect(trades.filter((t) => t.closedAtMs === null).length, 'one open trade while not flat').toBe(
            net === 0 ? 0 : 1,
          );
          expect(position.openTradeId).toBe(net === 0 ? null : trades[trades.length - 1]!.tradeId);
        },
      ),
      { numRuns: 300 },
    );
  });
});
