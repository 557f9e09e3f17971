// One fill as the position book receives it: a venue fill or a replayed historical one
// (docs/risk-rules.md#historical-fills), already priced in integer ticks and stamped with its GLOBEX trade date by
// the caller.

export type Side = 'buy' | 'sell';

export interface Execution {
  /** Unique across the book; lots join back to fills by it. */
  readonly executionId: string;
  /** Null for a replayed historical fill (no order). */
  readonly orderId: string | null;
  readonly accountId: string;
  /** GLOBEX symbol as written ('ESM6', '6EH4' or a bare root 'ES'); it is the position's instrument_id. */
  readonly symbol: string;
  readonly side: Side;
  /** Integer >= 1. */
  readonly quantity: number;
  /** Integer ticks of the instrument's tick size (may be negative: prices can be). */
  readonly priceTicks: number;
  readonly occurredAtMs: number;
  /** 'YYYY-MM-DD' GLOBEX trade date. */
  readonly tradeDate: string;
  /** Total commission of this fill in cents; charged to the balance by the caller, never to lots. */
  readonly commissionCents: number;
}

/** An execution the book refuses; `field` names the offending field. */
export class InvalidExecutionError extends Error {
  constructor(
    readonly executionId: string,
    readonly field: string,
    detail: string,
  ) {
    super(`execution ${JSON.stringify(executionId)}: ${field} ${detail}`);
    this.name = 'InvalidExecutionError';
  }
}

const TRADE_DATE_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** Fails fast on an execution that would corrupt the book (fractional quantity, off-grid price, bad date). */
export function assertValidExecution(e: Execution): void {
  const fail = (field: string, detail: string): never => {
    throw new InvalidExecutionError(e.executionId, field, detail);
  };
  if (typeof e.executionId !== 'string' || e.executionId === '') fail('executionId', 'must be a non-empty string');
  if (e.side !== 'buy' && e.side !== 'sell') fail('side', `must be 'buy' or 'sell', got ${JSON.stringify(e.side)}`);
  if (!Number.isSafeInteger(e.quantity) || e.quantity < 1)
    fail('quantity', `must be an integer >= 1, got ${e.quantity}`);
  if (!Number.isSafeInteger(e.priceTicks))
    fail('priceTicks', `must be an integer number of ticks, got ${e.priceTicks}`);
  if (!Number.isSafeInteger(e.occurredAtMs))
    fail('occurredAtMs', `must be integer milliseconds, got ${e.occurredAtMs}`);
  if (!Number.isSafeInteger(e.commissionCents))
    fail('commissionCents', `must be integer cents, got ${e.commissionCents}`);
  if (!TRADE_DATE_PATTERN.test(e.tradeDate))
    fail('tradeDate', `must be YYYY-MM-DD, got ${JSON.stringify(e.tradeDate)}`);
}

/** +1 for a buy, −1 for a sell. */
export function sideSign(side: Side): 1 | -1 {
  return side === 'buy' ? 1 : -1;
}
