// Sessions in which the contract a block's traders should trade printed nothing
// (docs/backtesting.md#several-instruments-and-contract-rolls): in summary.json, on stderr and in report.html.
import type { BacktestRun } from '../backtest/run-backtest.js';
import type { MissingPrints } from '../backtest/cells/traded-markets.js';

/** The sessions listed in a sentence before "and N more". */
const LISTED = 12;

/** Only a run whose blocks name instruments reports them (a run without keeps its outputs as they were). */
export function missingPrintsOf(run: BacktestRun): MissingPrints[] | undefined {
  // A run put together by hand (the report's tests) may have no synthetic blocks at all.
  const blocks = run.config.synthetic as BacktestRun['config']['synthetic'] | undefined;
  if (!blocks?.some((block) => block.instruments !== undefined)) return undefined;
  // Every cell reads the same files, so the first cell's list is every cell's.
  return run.cells[0]?.missingPrints ?? [];
}

/** "2 sessions had no prints for the contract traders should trade: NQM4 on 2024-03-12, …", or undefined. */
export function missingPrintsSentence(missing: readonly MissingPrints[] | undefined): string | undefined {
  if (!missing || missing.length === 0) return undefined;
  const listed = missing.slice(0, LISTED).map((m) => `${m.contract} on ${m.trade_date}`);
  const more = missing.length > LISTED ? `, and ${missing.length - LISTED} more (summary.json: missing_prints)` : '';
  const sessions = missing.length === 1 ? '1 session had' : `${missing.length} sessions had`;
  return `${sessions} no prints for the contract the traders should trade: ${listed.join(', ')}${more}; that session their traders drew among their other roots, or made no entry`;
}
