import { describe, expect, it } from 'vitest';
import { UnknownInstrumentError } from '../../../src/core/instruments.js';
import { InvalidExecutionError } from '../../../src/core/positions/index.js';
import { ACCOUNT, fill, newBook, ticksOf } from './executions.js';

// ES: tick 0.25 = $12.50, so 1.00 point = 4 ticks = $50.00 per contract.
describe('positions: net position, average price, FIFO realized P&L (docs/order-lifecycle.md#positions-trades-and-lots)', () => {
  it('average price is the weighted average of open lots; a sell closes the oldest lot first', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'e1', side: 'buy', quantity: 2, price: '5000.00' }));
    const second = book.applyFill(fill({ id: 'e2', side: 'buy', quantity: 1, price: '5001.00' }));
    expect(second.position.netQuantity, 'long 2 + 1').toBe(3);
    // (5000.00×2 + 5001.00×1)/3 = 5000.333… rounded to ES's 2 + 4 places
    expect(second.position.averagePrice).toBe('5000.333333');

    const sell = book.applyFill(fill({ id: 'e3', side: 'sell', quantity: 2, price: '5002.00' }));
    expect(sell.closedLots, 'both contracts close against the first lot (e1), FIFO').toHaveLength(1);
    expect(sell.closedLots[0]).toMatchObject({
      quantity: 2,
      openExecutionId: 'e1',
      closeExecutionId: 'e3',
      side: 'long',
    });
    expect(sell.realizedCents, '+2.00 points × 2 contracts × $50 = $200.00').toBe(20_000);
    expect(sell.position.netQuantity).toBe(1);
    expect(sell.position.averagePrice, 'what is left is the e2 lot at 5001.00').toBe('5001.00');
    expect(sell.position.openLots).toEqual([
      { executionId: 'e2', priceTicks: ticksOf('ESM6', '5001.00'), openedAtMs: expect.any(Number), quantity: 1 },
    ]);
    expect(sell.position.unrealizedCents, 'no print yet: marked at the last fill 5002.00, +1.00 × $50').toBe(5_000);

    book.markPrice('ESM6', ticksOf('ESM6', '5000.00'));
    expect(book.position(ACCOUNT, 'ESM6')?.unrealizedCents, '(5000.00 − 5001.00) × 1 × $50 = −$50.00').toBe(-5_000);
    expect(book.unrealizedCents(ACCOUNT)).toBe(-5_000);
    expect(book.position(ACCOUNT, 'ESM6')?.realizedCents).toBe(20_000);
  });

  it('FIFO consumes several lots, splitting a lot across two closing fills', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'a', side: 'buy', quantity: 1, price: '5000.00' }));
    book.applyFill(fill({ id: 'b', side: 'buy', quantity: 2, price: '5001.00' }));
    book.applyFill(fill({ id: 'c', side: 'buy', quantity: 3, price: '5002.00' }));

    const d = book.applyFill(fill({ id: 'd', side: 'sell', quantity: 2, price: '5003.00' }));
    expect(d.closedLots.map((l) => [l.openExecutionId, l.quantity, l.realizedCents])).toEqual([
      ['a', 1, 15_000], // +3.00 × 1 × $50
      ['b', 1, 10_000], // +2.00 × 1 × $50; one contract of b stays open
    ]);
    expect(d.realizedCents, '$150 + $100').toBe(25_000);

    const e = book.applyFill(fill({ id: 'e', side: 'sell', quantity: 3, price: '4999.00' }));
    expect(e.closedLots.map((l) => [l.openExecutionId, l.quantity, l.realizedCents])).toEqual([
      ['b', 1, -10_000], // rest of b: −2.00 × 1 × $50
      ['c', 2, -30_000], // −3.00 × 2 × $50; one contract of c stays open
    ]);
    expect(e.realizedCents, '−$100 − $300').toBe(-40_000);
    expect(e.position.netQuantity).toBe(1);
    expect(e.position.averagePrice).toBe('5002.00');

    const f = book.applyFill(fill({ id: 'f', side: 'sell', quantity: 1, price: '5002.00' }));
    expect(f.realizedCents, 'c closed at its own price').toBe(0);
    expect(f.position.netQuantity).toBe(0);
    expect(f.position.averagePrice, 'flat: no average price').toBeNull();
    expect(f.position.unrealizedCents).toBe(0);
    expect(f.tradesClosed).toEqual(['trade-1']);
    const trade = book.trade('trade-1');
    expect(trade?.lots, 'five lot records: a, b, b, c, c').toHaveLength(5);
    expect(trade?.realizedCents, '250 − 400 + 0 = −$150.00').toBe(-15_000);
    expect(trade?.maxQuantity, 'largest position during the trade: 1 + 2 + 3').toBe(6);
    expect(book.position(ACCOUNT, 'ESM6')?.realizedCents).toBe(-15_000);
  });

  it('a short round trip bought back lower is a gain', () => {
    const book = newBook();
    const open = book.applyFill(fill({ id: 's1', side: 'sell', quantity: 2, price: '5010.00' }));
    expect(open.position.netQuantity, 'short is negative').toBe(-2);
    expect(open.openedPosition).toBe(true);
    expect(open.tradeOpened).toBe('trade-1');
    const close = book.applyFill(fill({ id: 's2', side: 'buy', quantity: 2, price: '5005.50' }));
    expect(close.realizedCents, '(5010.00 − 5005.50) = 4.50 points × 2 × $50 = +$450.00').toBe(45_000);
    expect(close.closedLots[0]?.side).toBe('short');
    expect(book.trade('trade-1')).toMatchObject({ side: 'short', maxQuantity: 2, realizedCents: 45_000 });
  });

  it('a reversal closes one trade and opens the next from the same execution', () => {
    // CL: tick 0.01 = $10.00, so 1.00 = 100 ticks = $1,000 per contract.
    const book = newBook();
    book.applyFill(fill({ id: 'r1', side: 'buy', quantity: 2, price: '100.00', symbol: 'CLK6' }));
    const rev = book.applyFill(fill({ id: 'r2', side: 'sell', quantity: 5, price: '101.00', symbol: 'CLK6' }));
    expect(rev.realizedCents, '2 × 1.00 × $1,000 = $2,000.00').toBe(200_000);
    expect(rev.tradesClosed).toEqual(['trade-1']);
    expect(rev.tradeOpened).toBe('trade-2');
    expect(rev.openedPosition, 'long to short is not flat to open').toBe(false);
    expect(rev.position.netQuantity, '+2 − 5').toBe(-3);
    expect(rev.position.averagePrice).toBe('101.00');
    expect(rev.position.openLots).toEqual([
      { executionId: 'r2', priceTicks: 10_100, openedAtMs: expect.any(Number), quantity: 3 },
    ]);
    expect(book.trade('trade-1')).toMatchObject({
      side: 'long',
      maxQuantity: 2,
      realizedCents: 200_000,
      closedAtMs: rev.fill.occurredAtMs,
    });
    expect(book.trade('trade-2')).toMatchObject({
      side: 'short',
      maxQuantity: 3,
      realizedCents: 0,
      closedAtMs: null,
      openExecutionId: 'r2',
    });
    expect(book.trades(ACCOUNT).map((t) => t.tradeId)).toEqual(['trade-1', 'trade-2']);

    const back = book.applyFill(fill({ id: 'r3', side: 'buy', quantity: 3, price: '100.50', symbol: 'CLK6' }));
    expect(back.realizedCents, 'short 3 from 101.00 to 100.50: 0.50 × 3 × $1,000 = $1,500.00').toBe(150_000);
    expect(back.tradesClosed).toEqual(['trade-2']);
    expect(back.tradeOpened, 'exactly flat: nothing opens').toBeUndefined();
    expect(book.position(ACCOUNT, 'CLK6')?.realizedCents, '$2,000 + $1,500').toBe(350_000);
  });

  it('openedPosition is true only from flat; a trade re-opened after flat gets a new id', () => {
    const book = newBook();
    expect(book.applyFill(fill({ id: 'o1', side: 'buy', quantity: 1, price: '5000.00' })).openedPosition).toBe(true);
    expect(
      book.applyFill(fill({ id: 'o2', side: 'buy', quantity: 1, price: '5000.00' })).openedPosition,
      'adding',
    ).toBe(false);
    expect(
      book.applyFill(fill({ id: 'o3', side: 'sell', quantity: 2, price: '5000.00' })).openedPosition,
      'closing',
    ).toBe(false);
    const again = book.applyFill(fill({ id: 'o4', side: 'sell', quantity: 1, price: '5000.00' }));
    expect(again.openedPosition, 'flat to short').toBe(true);
    expect(again.tradeOpened).toBe('trade-2');
  });
});

describe('positions: marks (docs/risk-rules.md#balance-and-equity)', () => {
  it('before any print an instrument is marked at its last fill; after a print, only prints move the mark', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'm1', side: 'buy', quantity: 1, price: '5000.00', account: 'A' }));
    expect(book.unrealizedCents('A'), 'marked at its own fill price 5000.00: 0').toBe(0);
    book.applyFill(fill({ id: 'm2', side: 'sell', quantity: 1, price: '5001.00', account: 'B' }));
    expect(book.markTicks('ESM6'), "the symbol's last fill").toBe(ticksOf('ESM6', '5001.00'));
    expect(book.unrealizedCents('A'), 'A long from 5000.00 marked at the last fill 5001.00: +$50.00').toBe(5_000);
    expect(book.unrealizedCents('B'), 'B short at 5001.00: 0').toBe(0);

    book.markPrice('ESM6', ticksOf('ESM6', '4999.00'));
    expect(book.unrealizedCents('A'), 'A: (4999 − 5000) × $50 = −$50.00').toBe(-5_000);
    expect(book.unrealizedCents('B'), 'B short from 5001 at 4999: +2.00 × $50 = +$100.00').toBe(10_000);

    const b2 = book.applyFill(
      fill({ id: 'm3', side: 'buy', quantity: 1, price: '5003.00', account: 'B', symbol: 'ESM6' }),
    );
    expect(b2.realizedCents, 'B buys back 2.00 higher: −$100.00').toBe(-10_000);
    expect(book.unrealizedCents('A'), 'a fill after a print is not a print: A still at 4999.00').toBe(-5_000);
    expect(book.markTicks('ESM6')).toBe(ticksOf('ESM6', '4999.00'));
  });

  it('unrealized sums over an account’s instruments, each at its own mark; other contract months are other instruments', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'x1', side: 'buy', quantity: 1, price: '5000.00', symbol: 'ESM6' }));
    book.applyFill(fill({ id: 'x2', side: 'sell', quantity: 2, price: '100.00', symbol: 'CLK6' }));
    book.markPrice('ESM6', ticksOf('ESM6', '5002.00')); // +2.00 × $50 = +$100
    book.markPrice('ESU6', ticksOf('ESU6', '4000.00')); // not held
    book.markPrice('CLK6', ticksOf('CLK6', '100.25')); // short 2: −0.25 × 2 × $1,000 = −$500
    expect(book.unrealizedCents(ACCOUNT), '$100 − $500').toBe(-40_000);
    expect(
      book.positions(ACCOUNT).map((p) => p.symbol),
      'first traded first',
    ).toEqual(['ESM6', 'CLK6']);
    expect(book.unrealizedCents('nobody')).toBe(0);
    expect(book.positions('nobody')).toEqual([]);
    expect(book.position(ACCOUNT, 'ESU6'), 'never traded').toBeUndefined();
  });
});

describe('positions: realized P&L by trade date and commissions (docs/order-lifecycle.md#daily-position-records)', () => {
  it('realized P&L is kept per trade date, one entry per trade date traded', () => {
    const book = newBook();
    book.applyFill(
      fill({ id: 'd1', side: 'buy', quantity: 2, price: '5000.00', tradeDate: '2026-03-09', commissionCents: 250 }),
    );
    book.applyFill(
      fill({ id: 'd2', side: 'sell', quantity: 1, price: '5004.00', tradeDate: '2026-03-09', commissionCents: 125 }),
    );
    book.applyFill(
      fill({ id: 'd3', side: 'sell', quantity: 1, price: '4998.00', tradeDate: '2026-03-10', commissionCents: 125 }),
    );
    book.applyFill(
      fill({ id: 'd4', side: 'buy', quantity: 1, price: '4990.00', tradeDate: '2026-03-10', commissionCents: 125 }),
    );
    book.applyFill(
      fill({ id: 'd5', side: 'buy', quantity: 1, price: '4991.00', tradeDate: '2026-03-11', commissionCents: 125 }),
    );
    expect([...book.realizedByTradeDate(ACCOUNT, 'ESM6')]).toEqual([
      ['2026-03-09', 20_000], // +4.00 × 1 × $50
      ['2026-03-10', -10_000], // −2.00 × 1 × $50; d4 opens a new trade
      ['2026-03-11', 0], // traded, nothing realized
    ]);
    const position = book.position(ACCOUNT, 'ESM6');
    expect(position?.realizedCents, '$200 − $100').toBe(10_000);
    expect(position?.commissionCents, 'commissions add up per position: 2.50 + 4 × 1.25').toBe(750);
    expect(
      book.fills(ACCOUNT).map((f) => f.realizedCents),
      'realized per fill',
    ).toEqual([0, 20_000, -10_000, 0, 0]);
    expect(book.realizedByTradeDate(ACCOUNT, 'NQM6').size).toBe(0);
  });
});

describe('positions: executions the book refuses', () => {
  it('refuses a repeated execution id, a bad quantity, a fractional tick, a bad trade date, an unknown symbol', () => {
    const book = newBook();
    book.applyFill(fill({ id: 'v1', side: 'buy', quantity: 1, price: '5000.00' }));
    expect(() => book.applyFill(fill({ id: 'v1', side: 'sell', quantity: 1, price: '5000.00' }))).toThrowError(
      /"v1": executionId was already applied/,
    );
    expect(() =>
      book.applyFill({ ...fill({ id: 'v2', side: 'buy', quantity: 1, price: '5000.00' }), quantity: 0 }),
    ).toThrowError(InvalidExecutionError);
    expect(() =>
      book.applyFill({ ...fill({ id: 'v3', side: 'buy', quantity: 1, price: '5000.00' }), priceTicks: 1.5 }),
    ).toThrowError(/priceTicks/);
    expect(() =>
      book.applyFill({ ...fill({ id: 'v4', side: 'buy', quantity: 1, price: '5000.00' }), tradeDate: '2026-3-9' }),
    ).toThrowError(/tradeDate/);
    expect(() =>
      book.applyFill({ ...fill({ id: 'v5', side: 'buy', quantity: 1, price: '5000.00' }), symbol: 'XXM6' }),
    ).toThrowError(UnknownInstrumentError);
    expect(() => book.markPrice('ESM6', 0.5)).toThrowError(RangeError);
    expect(book.fills(ACCOUNT), 'only the first execution was applied').toHaveLength(1);
    expect(book.position(ACCOUNT, 'ESM6')?.netQuantity).toBe(1);
  });
});
