// One execution of a trader as propsim reads it (docs/backtesting.md#historical-fills): from its own fills CSV or
// a broker export an importer read. Owned here, by the importers that make it; back-tests and calibrate take it.
export interface TraderFill {
  timeMs: number;
  trader: string;
  symbol: string;
  side: 'buy' | 'sell';
  quantity: number;
  price: string;
  /** The export's commission in dollars, kept for reference; the plan's commission is what a back-test books. */
  commission?: string;
  line: number;
}
