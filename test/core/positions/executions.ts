// Test helpers: executions written with prices as decimal strings, converted to ticks of the contract.
import { parseSymbol } from '../../../src/core/instruments.js';
import { Dec, priceToTicks } from '../../../src/core/money.js';
import type { Execution, Side } from '../../../src/core/positions/index.js';
import { PositionBook } from '../../../src/core/positions/index.js';

/** Integer ticks of a price string for a symbol: ticksOf('ESM6', '5000.25') = 20001. */
export function ticksOf(symbol: string, price: string): number {
  return priceToTicks(new Dec(price), new Dec(parseSymbol(symbol).spec.tickSize));
}

export interface FillInput {
  id: string;
  side: Side;
  quantity: number;
  price: string;
  symbol?: string;
  account?: string;
  atMs?: number;
  tradeDate?: string;
  commissionCents?: number;
  orderId?: string | null;
}

export const ACCOUNT = 'acct-a';
export const T0_MS = 1_773_064_800_000; // 2026-03-09 14:00 UTC, any fixed ms will do

let clockMs = T0_MS;

/** An execution on ESM6 for ACCOUNT unless told otherwise; each call one second after the previous. */
export function fill(input: FillInput): Execution {
  const symbol = input.symbol ?? 'ESM6';
  clockMs += 1000;
  return {
    executionId: input.id,
    orderId: input.orderId === undefined ? `order-${input.id}` : input.orderId,
    accountId: input.account ?? ACCOUNT,
    symbol,
    side: input.side,
    quantity: input.quantity,
    priceTicks: ticksOf(symbol, input.price),
    occurredAtMs: input.atMs ?? clockMs,
    tradeDate: input.tradeDate ?? '2026-03-09',
    commissionCents: input.commissionCents ?? 0,
  };
}

/** A book whose trade ids are trade-1, trade-2, ... */
export function newBook(): PositionBook {
  let n = 0;
  return new PositionBook({ newId: () => `trade-${++n}` });
}
