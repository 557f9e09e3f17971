import { describe, expect, it } from 'vitest';
import {
  fillToJson,
  lotToJson,
  positionToJson,
  tradeLotsToJson,
  tradeToJson,
} from '../../../src/core/positions/index.js';
import { ACCOUNT, fill, newBook } from './executions.js';

const T = 1_773_064_800_000;

function roundTrip() {
  const book = newBook();
  book.applyFill(
    fill({ id: 'ex-1', orderId: null, side: 'buy', quantity: 2, price: '5000.25', atMs: T, commissionCents: 430 }),
  );
  const close = book.applyFill(
    fill({
      id: 'ex-2',
      side: 'sell',
      quantity: 1,
      price: '5001.75',
      atMs: T + 60_000,
      commissionCents: 215,
      tradeDate: '2026-03-10',
    }),
  );
  return { book, close };
}

describe('positions: public forms with exact decimal strings (docs/order-lifecycle.md#public-records)', () => {
  it('fill record: no order_id for a historical fill, price in the contract’s decimals, money in cents', () => {
    const { book } = roundTrip();
    expect(book.fills(ACCOUNT).map(fillToJson)).toEqual([
      {
        execution_id: 'ex-1',
        account_id: ACCOUNT,
        instrument_id: 'ESM6',
        side: 'buy',
        quantity: 2,
        price: '5000.25',
        occurred_at: T,
        trade_date: '2026-03-09',
        commission: '4.30',
        realized_pnl: '0.00',
        trade_id: 'trade-1',
      },
      {
        execution_id: 'ex-2',
        order_id: 'order-ex-2',
        account_id: ACCOUNT,
        instrument_id: 'ESM6',
        side: 'sell',
        quantity: 1,
        price: '5001.75',
        occurred_at: T + 60_000,
        trade_date: '2026-03-10',
        commission: '2.15',
        realized_pnl: '75.00', // +1.50 points × 1 × $50
        trade_id: 'trade-1',
      },
    ]);
  });

  it('trade lot breakdown: lot fields with their public names and decimal strings', () => {
    const { close } = roundTrip();
    expect(close.closedLots.map(lotToJson)).toEqual([
      {
        quantity: 1,
        open_execution_id: 'ex-1',
        open_price: '5000.25',
        opened_at: T,
        close_execution_id: 'ex-2',
        close_price: '5001.75',
        closed_at: T + 60_000,
        realized_pnl: '75.00',
      },
    ]);
  });

  it('a trade record has closed_at only once closed, quantity = largest position, realized = Σ lots', () => {
    const { book } = roundTrip();
    const open = tradeToJson(book.trades(ACCOUNT)[0]!);
    expect(open).toEqual({
      trade_id: 'trade-1',
      account_id: ACCOUNT,
      instrument_id: 'ESM6',
      direction: 'long',
      opened_at: T,
      quantity: 2,
      realized_pnl: '75.00',
      status: 'open',
    });
    expect('closed_at' in open, 'still long 1: the trade is open').toBe(false);
    expect(tradeLotsToJson(book.trade('trade-1')!).lots).toEqual([
      expect.objectContaining({ open_execution_id: 'ex-1', close_execution_id: 'ex-2' }),
    ]);

    book.applyFill(fill({ id: 'ex-3', side: 'sell', quantity: 1, price: '4999.00', atMs: T + 120_000 }));
    const closed = tradeToJson(book.trade('trade-1')!);
    expect(closed.closed_at).toBe(T + 120_000);
    expect(closed.status).toBe('closed');
    expect(closed.realized_pnl, '$75.00 + (4999.00 − 5000.25) × $50 = $75.00 − $62.50').toBe('12.50');
    expect(tradeLotsToJson(book.trade('trade-1')!).lots.map((l) => l.realized_pnl)).toEqual(['75.00', '-62.50']);
  });

  it('position form: signed net quantity, average price, realized/unrealized strings, last change time', () => {
    const { book } = roundTrip();
    book.markPrice('ESM6', 20_000); // 5000.00: long 1 from 5000.25 -> −0.25 × $50 = −$12.50
    expect(positionToJson(book.position(ACCOUNT, 'ESM6')!)).toEqual({
      account_id: ACCOUNT,
      instrument_id: 'ESM6',
      net_quantity: 1,
      average_price: '5000.25',
      realized_pnl: '75.00',
      unrealized_pnl: '-12.50',
      updated_at: T + 60_000,
    });
    expect(book.position(ACCOUNT, 'ESM6')!.commissionCents, 'commission 4.30 + 2.15, kept in cents').toBe(645);
    book.applyFill(fill({ id: 'ex-3', side: 'sell', quantity: 3, price: '5000.00' }));
    expect(positionToJson(book.position(ACCOUNT, 'ESM6')!)).toMatchObject({
      net_quantity: -2,
      average_price: '5000.00',
      unrealized_pnl: '0.00',
    });
  });

  it('determinism: the same fills and seed give byte-identical records', () => {
    const render = () => {
      const { book } = roundTrip();
      book.applyFill(fill({ id: 'ex-3', side: 'sell', quantity: 4, price: '5003.00', atMs: T + 1 }));
      return JSON.stringify([
        book.fills(ACCOUNT).map(fillToJson),
        book.trades(ACCOUNT).map(tradeToJson),
        book.positions(ACCOUNT).map(positionToJson),
      ]);
    };
    expect(render()).toBe(render());
  });
});
