// Does the market data cover the back-test's period? Checked once, before any cell runs. A period that reaches
// beyond the data would run its traders through sessions without prints while the funnel goes on billing them, and
// one with no prints at all would report a 0 % pass rate: both are invalid input, naming the period and the trade
// dates the files hold. With `market.resample` the period is filled from the files' whole sessions instead, and the
// check is that they hold enough of them (tape/cell-tape.ts). The files are read with the cells' own reader, and only
// up to the end of the period (what every cell reads anyway), except when nothing fell in the period: then to the
// end, to say what the files do cover.
import { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import type { ProductFamily } from '../../core/instruments.js';
import { loadHolidayFile } from '../../market/holiday-file.js';
import { marketPrintBatches } from '../../market/sources.js';
import type { BacktestConfig } from './backtest-config.js';
import { BacktestInputError } from '../backtest-input-error.js';
import { periodSessions } from './trader-roster.js';
import { sessionFamily } from './block-instruments.js';
import { checkTape, type TapeDescription } from '../tape/cell-tape.js';

/** First and last print times, or undefined when there were none. */
type Span = { firstMs: number; lastMs: number } | undefined;

/**
 * Throws a BacktestInputError when the period's first or last trade date lies beyond the market data's (or no print
 * falls in it); with `market.resample`, when the files hold too few whole sessions. Returns what the resampled
 * tape is made of, or undefined for the files as they are. `field` names the period in a message (an optimize
 * config's `confirmation.period`).
 */
export async function checkPeriodCoverage(
  config: BacktestConfig,
  calendar = new GlobexCalendar(loadHolidayFile()),
  field = 'period',
): Promise<TapeDescription | undefined> {
  const family = sessionFamily(config);
  const sessions = periodSessions(calendar, config.period, family);
  if (config.resample) return checkTape({ ...config, resample: config.resample }, sessions, calendar);
  const startMs = sessions[0]!.openMs;
  const endMs = sessions[sessions.length - 1]!.closeMs;
  const { inPeriod, seen } = await scan(config, startMs, endMs);
  const dates = (span: NonNullable<Span>) =>
    `${tradeDate(calendar, span.firstMs, family)} to ${tradeDate(calendar, span.lastMs, family)}`;
  const period = `${config.period.from} to ${config.period.to}`;
  const resample =
    'or fill the period with a tape resampled from their sessions: market.resample: { block_sessions: 5 } (docs/backtesting.md#long-horizons-a-resampled-tape)';
  if (!inPeriod) {
    const covered = seen ? `the market files hold trade dates ${dates(seen)}` : 'the market files hold no prints';
    throw new BacktestInputError(
      `${config.file}: ${field}: no market data in the period ${period}: ${covered}; move the period into that range, add market files for it, ${resample}`,
    );
  }
  const first = tradeDate(calendar, seen!.firstMs, family);
  const last = tradeDate(calendar, seen!.lastMs, family);
  if (first <= sessions[0]!.tradeDate && last >= sessions[sessions.length - 1]!.tradeDate) return undefined;
  // How many of the period's sessions lie beyond the data: a mistyped year (2126 for 2026) shows as thousands.
  const beyond = sessions.filter((s) => s.tradeDate < first || s.tradeDate > last).length;
  throw new BacktestInputError(
    `${config.file}: ${field}: the period ${period} is longer than the market data, which holds trade dates ${first} to ${last}: ${beyond.toLocaleString('en-US')} of its ${sessions.length.toLocaleString('en-US')} trade dates lie beyond it; move the period inside ${first} to ${last}, add market files, ${resample}`,
  );
}

/** Prints in [startMs, endMs), and every print read; stops at the period's end unless nothing fell in it. */
async function scan(config: BacktestConfig, startMs: number, endMs: number): Promise<{ inPeriod: Span; seen: Span }> {
  let inPeriod: Span;
  let seen: Span;
  const batches = marketPrintBatches(config.market);
  try {
    for await (const batch of batches) {
      for (let i = 0; i < batch.length; i++) {
        const timeMs = batch.timeMs[i]!;
        seen = seen ? { firstMs: seen.firstMs, lastMs: timeMs } : { firstMs: timeMs, lastMs: timeMs };
        if (timeMs >= endMs && inPeriod) return { inPeriod, seen };
        if (timeMs >= startMs && timeMs < endMs)
          inPeriod = inPeriod ? { firstMs: inPeriod.firstMs, lastMs: timeMs } : { firstMs: timeMs, lastMs: timeMs };
      }
    }
  } finally {
    await batches.return(undefined);
  }
  return { inPeriod, seen };
}

function tradeDate(calendar: GlobexCalendar, timeMs: number, family: ProductFamily): string {
  return calendar.tradeDateOfFamily(timeMs, family);
}
