// Does the market data cover the back-test's period? Checked once, before any cell runs: a period with no
// prints at all would run every cell for nothing and report a 0 % pass rate, so it is invalid input; a period
// the data covers only in part runs, with a warning naming the trade dates that have data. The files are
// read with the cells' own reader, and only up to the end of the period (what every cell reads anyway),
// except when nothing fell in the period: then to the end, to say what the files do cover.
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import type { ProductFamily } from '../core/instruments.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { marketPrintBatches } from '../market/sources.js';
import type { BacktestConfig } from './backtest-config.js';
import { BacktestInputError } from './backtest-input-error.js';
import { periodSessions } from './trader-roster.js';
import { sessionFamily } from './block-instruments.js';

/** First and last print times, or undefined when there were none. */
type Span = { firstMs: number; lastMs: number } | undefined;

/**
 * Throws a BacktestInputError when no print falls in the period's sessions; returns a warning when the
 * prints start after the period's first trade date or end before its last, else undefined.
 */
export async function checkPeriodCoverage(
  config: BacktestConfig,
  calendar = new GlobexCalendar(loadHolidayFile()),
): Promise<string | undefined> {
  const family = sessionFamily(config);
  const sessions = periodSessions(calendar, config.period, family);
  const startMs = sessions[0]!.openMs;
  const endMs = sessions[sessions.length - 1]!.closeMs;
  const { inPeriod, seen } = await scan(config, startMs, endMs);
  const dates = (span: NonNullable<Span>) =>
    `${tradeDate(calendar, span.firstMs, family)} to ${tradeDate(calendar, span.lastMs, family)}`;
  const period = `${config.period.from} to ${config.period.to}`;
  if (!inPeriod) {
    const covered = seen ? `the market files hold trade dates ${dates(seen)}` : 'the market files hold no prints';
    throw new BacktestInputError(
      `${config.file}: period: no market data in the period ${period}: ${covered}; move the period into that range or add market files for it`,
    );
  }
  const first = tradeDate(calendar, inPeriod.firstMs, family);
  const last = tradeDate(calendar, inPeriod.lastMs, family);
  if (first === sessions[0]!.tradeDate && last === sessions[sessions.length - 1]!.tradeDate) return undefined;
  // How many of the period's sessions the data leaves empty: a mistyped year (2126 for 2026) shows as thousands, each
  // of which every cell still runs through.
  const withData = sessions.filter((s) => s.tradeDate >= first && s.tradeDate <= last).length;
  const empty = sessions.length - withData;
  return `the market data covers only part of the period ${period}: trade dates ${first} to ${last} have data; the other ${empty.toLocaleString('en-US')} of its ${sessions.length.toLocaleString('en-US')} trade dates have no prints, and every cell still runs through them`;
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
