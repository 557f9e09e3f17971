// Positions the account held that the trader's own fills never had (docs/backtesting.md#fills-the-engine-dropped):
// once the engine drops some of a trader's fills, or flattens the account, the account's position and the
// trader's own (every one of their fills, booked or not) can part, and a later booked fill can open a position
// the trader never had — a historical exit on a flat account opens a new one.

export class PositionsNeverHad {
  /** Openings counted so far. */
  count = 0;
  /** The trader's own net quantity per instrument: the sum of all their fills, whatever the engine did. */
  private readonly own = new Map<string, number>();

  /**
   * After one of the trader's fills: `signedQuantity` (+ buy, − sell) in `symbol`, and the account's net quantity
   * in it before and after (equal when the fill was dropped). Counts the fill when it opened an account position,
   * from flat or by reversing, on a side the trader's own position after it is not on (flat or the other side).
   */
  afterFill(symbol: string, signedQuantity: number, accountBefore: number, accountAfter: number): void {
    const own = (this.own.get(symbol) ?? 0) + signedQuantity;
    this.own.set(symbol, own);
    const opened = accountAfter !== 0 && Math.sign(accountAfter) !== Math.sign(accountBefore);
    if (opened && Math.sign(own) !== Math.sign(accountAfter)) this.count++;
  }
}
