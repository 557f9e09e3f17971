// Historical fills at prices the market did not trade near (docs/backtesting.md#fills-off-the-market): a fat-fingered
// price, a fill of another day, a wrong export. A fill is off the market when its price lies more than
// OFF_MARKET_TICKS ticks outside the low–high of its instrument's prints in its minute (UTC); in a minute without
// such prints, the nearest minutes with prints before and after it, within NEAREST_MINUTES each side, give the
// range. With none there, or an instrument no market file prints, there is no market to compare. Checked once,
// before any cell runs, by one read of the market files up to the last fill: the fills and prints are the same in
// every cell.
import { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import { canonicalSymbol, parseSymbol } from '../../core/instruments.js';
import { Dec, priceToTicks, ticksToPrice } from '../../core/money.js';
import { loadHolidayFile } from '../../market/holiday-file.js';
import { marketPrintBatches } from '../../market/sources.js';
import type { BacktestConfig } from '../config/backtest-config.js';
import { sessionFamily } from '../config/block-instruments.js';
import { readFillsFile, type TraderFill } from './trader-fills.js';
import { periodSessions } from '../config/trader-roster.js';

/** How far outside the minute's low–high a fill may lie: a broker's clock a second off at a minute's edge. */
export const OFF_MARKET_TICKS = 2;
/** How far a minute without prints looks for the nearest minutes with prints, each side. */
export const NEAREST_MINUTES = 5;

const MINUTE_MS = 60_000;

export interface OffMarketFill {
  /** The fills file and its line. */
  file: string;
  line: number;
  trader: string;
  symbol: string;
  side: 'buy' | 'sell';
  quantity: number;
  timeMs: number;
  price: string;
  /** What the instrument traded from `fromMs` to `toMs` (whole minutes, UTC). */
  low: string;
  high: string;
  fromMs: number;
  toMs: number;
  /** Ticks above the high (positive) or below the low (negative). */
  ticksOutside: number;
}

export interface TraderFillsAgainstMarket {
  offMarket: number;
  /** Fills with no print of their instrument within NEAREST_MINUTES: not compared. */
  noMarket: number;
}

export interface FillsAgainstMarket {
  /** Per trader of the fills file with fills in the period, in the order they first appear. */
  byTrader: Map<string, TraderFillsAgainstMarket>;
  /** The fills off the market, in time order (file order within an instant). */
  offMarket: OffMarketFill[];
}

export function noFillsAgainstMarket(): FillsAgainstMarket {
  return { byTrader: new Map(), offMarket: [] };
}

/** The config's historical fills in the period, each against its instrument's prints. */
export async function fillsAgainstMarket(
  config: BacktestConfig,
  calendar = new GlobexCalendar(loadHolidayFile()),
): Promise<FillsAgainstMarket> {
  if (!config.fills) return noFillsAgainstMarket();
  const sessions = periodSessions(calendar, config.period, sessionFamily(config));
  const startMs = sessions[0]!.openMs;
  const endMs = sessions[sessions.length - 1]!.closeMs;
  // The window the cells book fills in (cell-runner.ts): the others are ignored there, and here.
  const fills = readFillsFile(config.fills).filter((f) => f.timeMs >= startMs && f.timeMs < endMs);
  const ranges = await minuteRanges(config, fills);
  const result = noFillsAgainstMarket();
  for (const fill of fills) {
    const counts = countsOf(result.byTrader, fill.trader);
    const symbol = canonicalSymbol(parseSymbol(fill.symbol));
    const range = rangeAround(ranges.get(symbol), minuteOf(fill.timeMs));
    if (!range) {
      counts.noMarket++;
      continue;
    }
    const { tickSize, priceDecimals } = parseSymbol(symbol).spec;
    const tick = new Dec(tickSize);
    const ticks = priceToTicks(new Dec(fill.price), tick);
    const outside = ticks > range.high ? ticks - range.high : ticks < range.low ? ticks - range.low : 0;
    if (Math.abs(outside) <= OFF_MARKET_TICKS) continue;
    counts.offMarket++;
    result.offMarket.push({
      file: config.fills.path,
      line: fill.line,
      trader: fill.trader,
      symbol,
      side: fill.side,
      quantity: fill.quantity,
      timeMs: fill.timeMs,
      price: fill.price,
      low: ticksToPrice(range.low, tick, priceDecimals),
      high: ticksToPrice(range.high, tick, priceDecimals),
      fromMs: range.fromMinute * MINUTE_MS,
      toMs: (range.toMinute + 1) * MINUTE_MS,
      ticksOutside: outside,
    });
  }
  return result;
}

/** A minute's low and high, in ticks. */
type MinuteRange = { low: number; high: number };

/**
 * Per instrument, the low and high of each minute within NEAREST_MINUTES of a fill of it: one read of the market
 * files, up to the last such minute.
 */
async function minuteRanges(
  config: BacktestConfig,
  fills: readonly TraderFill[],
): Promise<Map<string, Map<number, MinuteRange>>> {
  const wanted = new Map<string, Set<number>>();
  let lastMinute = -Infinity;
  for (const fill of fills) {
    const symbol = canonicalSymbol(parseSymbol(fill.symbol));
    let minutes = wanted.get(symbol);
    if (!minutes) wanted.set(symbol, (minutes = new Set()));
    const minute = minuteOf(fill.timeMs);
    for (let m = minute - NEAREST_MINUTES; m <= minute + NEAREST_MINUTES; m++) minutes.add(m);
    lastMinute = Math.max(lastMinute, minute + NEAREST_MINUTES);
  }
  const ranges = new Map<string, Map<number, MinuteRange>>();
  if (fills.length === 0) return ranges;
  // By a batch's instrument index: its canonical symbol's wanted minutes and ranges, or null when none is wanted.
  const byIndex: Array<{ minutes: Set<number>; ranges: Map<number, MinuteRange> } | null> = [];
  const batches = marketPrintBatches(config.market);
  try {
    for await (const batch of batches) {
      for (let i = 0; i < batch.length; i++) {
        const minute = minuteOf(batch.timeMs[i]!);
        if (minute > lastMinute) return ranges;
        const index = batch.instrumentIndex[i]!;
        let known = byIndex[index];
        if (known === undefined) {
          const symbol = canonicalSymbol(parseSymbol(batch.symbols.symbol(index)));
          const minutes = wanted.get(symbol);
          if (minutes && !ranges.has(symbol)) ranges.set(symbol, new Map());
          known = byIndex[index] = minutes ? { minutes, ranges: ranges.get(symbol)! } : null;
        }
        if (!known?.minutes.has(minute)) continue;
        const ticks = batch.priceTicks[i]!;
        const range = known.ranges.get(minute);
        if (!range) known.ranges.set(minute, { low: ticks, high: ticks });
        else {
          range.low = Math.min(range.low, ticks);
          range.high = Math.max(range.high, ticks);
        }
      }
    }
  } finally {
    await batches.return(undefined);
  }
  return ranges;
}

/**
 * The range a fill in `minute` is held to: that minute's, or the nearest minutes with prints before and after it
 * (within NEAREST_MINUTES), taken together; undefined when there is none.
 */
function rangeAround(
  ranges: Map<number, MinuteRange> | undefined,
  minute: number,
): (MinuteRange & { fromMinute: number; toMinute: number }) | undefined {
  if (!ranges) return undefined;
  const own = ranges.get(minute);
  if (own) return { ...own, fromMinute: minute, toMinute: minute };
  const nearest = (step: 1 | -1) => {
    for (let m = minute + step; Math.abs(m - minute) <= NEAREST_MINUTES; m += step) if (ranges.has(m)) return m;
    return undefined;
  };
  const before = nearest(-1);
  const after = nearest(1);
  const minutes = [before, after].filter((m): m is number => m !== undefined);
  if (minutes.length === 0) return undefined;
  const found = minutes.map((m) => ranges.get(m)!);
  return {
    low: Math.min(...found.map((r) => r.low)),
    high: Math.max(...found.map((r) => r.high)),
    fromMinute: minutes[0]!,
    toMinute: minutes[minutes.length - 1]!,
  };
}

function minuteOf(timeMs: number): number {
  return Math.floor(timeMs / MINUTE_MS);
}

function countsOf(byTrader: Map<string, TraderFillsAgainstMarket>, trader: string): TraderFillsAgainstMarket {
  let counts = byTrader.get(trader);
  if (!counts) byTrader.set(trader, (counts = { offMarket: 0, noMarket: 0 }));
  return counts;
}
