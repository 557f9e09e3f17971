// Historical fills off the market (docs/backtesting.md#fills-off-the-market) as the outputs tell them: counts per
// trader and cell in traders.csv, cells.csv and summary.json, a warning on stderr naming the first, the refusal under
// --strict, and a list in report.html.
import type { CellResult } from '../backtest/cells/cell-runner.js';
import {
  NEAREST_MINUTES,
  OFF_MARKET_TICKS,
  type FillsAgainstMarket,
  type OffMarketFill,
  type TraderFillsAgainstMarket,
} from '../backtest/fills/off-market-fills.js';
import type { BacktestRun } from '../backtest/run-backtest.js';
import { escapeHtml, htmlTable } from './html.js';

/** Last in both CSVs. */
export const OFF_MARKET_COLUMNS = ['fills_off_market', 'fills_no_market'];

/** A trader's counts; 0 for a synthetic trader, or one without fills in the period. */
export function traderOffMarket(run: BacktestRun, trader: string): TraderFillsAgainstMarket {
  return run.fillsAgainstMarket.byTrader.get(trader) ?? { offMarket: 0, noMarket: 0 };
}

/** The sums over the cell's traders: the same in every cell, since every cell books the same fills. */
export function cellOffMarket(run: BacktestRun, cell: CellResult): TraderFillsAgainstMarket {
  return cell.traders.reduce(
    (sum, t) => {
      const counts = traderOffMarket(run, t.trader);
      return { offMarket: sum.offMarket + counts.offMarket, noMarket: sum.noMarket + counts.noMarket };
    },
    { offMarket: 0, noMarket: 0 },
  );
}

/** `fills.csv:3: cat sell 1 ESM6 at 5011.25 at 2026-04-08T14:30:10.000Z, 3 ticks below ESM6's 5012.00 to …`. */
export function offMarketFillText(f: OffMarketFill): string {
  const ticks = `${Math.abs(f.ticksOutside).toLocaleString('en-US')} tick${Math.abs(f.ticksOutside) === 1 ? '' : 's'}`;
  return `${f.file}:${f.line}: ${f.trader} ${f.side} ${f.quantity} ${f.symbol} at ${f.price} at ${new Date(f.timeMs).toISOString()}, ${ticks} ${f.ticksOutside > 0 ? 'above' : 'below'} ${f.symbol}'s ${f.low} to ${f.high} ${minutesText(f)}`;
}

/** The stderr warning, or undefined when every fill lies on the market. */
export function offMarketWarning(checked: FillsAgainstMarket): string | undefined {
  const first = checked.offMarket[0];
  if (!first) return undefined;
  const count = checked.offMarket.length;
  return `${count} historical fill${count === 1 ? ' lies' : 's lie'} more than ${OFF_MARKET_TICKS} ticks outside the prices their instrument traded in their minute (fills_off_market in traders.csv, cells.csv and summary.json; report.html lists them); the first: ${offMarketFillText(first)}; --strict refuses them`;
}

/** Why --strict refuses the run, naming the first fill off the market. */
export function offMarketRefusal(checked: FillsAgainstMarket): string | undefined {
  const first = checked.offMarket[0];
  if (!first) return undefined;
  return `${offMarketFillText(first)}: a historical fill more than ${OFF_MARKET_TICKS} ticks outside the market (${checked.offMarket.length} in all, docs/backtesting.md#fills-off-the-market); correct the fills file, or run without --strict to count them as fills_off_market`;
}

/** The most fills the report lists; the rest are counted. */
const LISTED = 20;

/** report.html's section, when some fill was off the market or had none to compare with. */
export function offMarketSection(run: BacktestRun): string[] {
  const { offMarket, byTrader } = run.fillsAgainstMarket;
  const noMarket = [...byTrader.values()].reduce((sum, c) => sum + c.noMarket, 0);
  if (offMarket.length === 0 && noMarket === 0) return [];
  const sentence =
    `${offMarket.length.toLocaleString('en-US')} historical fill${offMarket.length === 1 ? ' lies' : 's lie'} more than ${OFF_MARKET_TICKS} ticks outside the prices their instrument traded in their minute (UTC; in a minute without prints, the nearest minutes with prints within ${NEAREST_MINUTES} on each side). ` +
    `${noMarket.toLocaleString('en-US')} had no print of their instrument within ${NEAREST_MINUTES} minutes to compare with. ` +
    'Every cell books them at their own prices all the same: a cell rests on them as much as on any fill.';
  const rows = offMarket
    .slice(0, LISTED)
    .map((f) => [
      `${f.file}:${f.line}`,
      f.trader,
      new Date(f.timeMs).toISOString(),
      `${f.side} ${f.quantity} ${f.symbol}`,
      f.price,
      `${f.low} to ${f.high}`,
      `${hhmm(f.fromMs)} to ${hhmm(f.toMs)} UTC`,
      String(f.ticksOutside),
    ]);
  const more = offMarket.length > LISTED ? `<p class="meta">and ${offMarket.length - LISTED} more</p>` : '';
  return [
    '<h2>Historical fills off the market</h2>',
    `<p>${escapeHtml(sentence)}</p>`,
    ...(rows.length === 0
      ? []
      : [
          htmlTable(
            ['where', 'trader', 'time (UTC)', 'fill', 'price', 'market traded', 'minutes', 'ticks outside'],
            rows,
          ) + more,
        ]),
  ];
}

/** `between 14:30 and 14:31 UTC`: the whole minutes the range comes from. */
function minutesText(f: OffMarketFill): string {
  return `between ${hhmm(f.fromMs)} and ${hhmm(f.toMs)} UTC`;
}

function hhmm(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}
