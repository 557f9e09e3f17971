// What calibration measures of one trader (docs/backtesting.md#calibrating-synthetic-traders): from its round trips,
// how often, how big and how long it trades, the stop and target distances its exits imply, its win rate and the
// Chicago times of its entries. Distances are whole ticks; counts and times are integers; only rates are floats.
import { chicagoDateOf, chicagoIso } from '../core/calendar/dates.js';
import { parseSymbol } from '../core/instruments.js';
import type { TraderFill } from '../import/trader-fill.js';
import { roundTripsOf, type RoundTrip } from './round-trips.js';

export interface TraderTraits {
  trader: string;
  roundTrips: number;
  /** Trade dates (17:00 CT the evening before to 16:00 CT) with at least one entry. */
  activeDays: number;
  /** Entries on each active day. */
  entriesPerDay: number[];
  /** Contracts of each round trip. */
  contracts: number[];
  /**
   * Distances of losing exits, in ticks: the stops it used (or the losses it cut by hand). Exits in the quarter hour
   * before the 16:00 CT close are left out of both distances: they flatten for the close, at whatever price.
   */
  stopTicks: number[];
  /** Distances of winning exits, in ticks: the targets it took. */
  targetTicks: number[];
  /** Minutes each round trip was held, entry to last exit (whole minutes, rounded down). */
  holdMinutes: number[];
  wins: number;
  losses: number;
  /** Chicago minute of the day of each entry (0 = midnight CT). */
  entryMinutes: number[];
  /** Round trips per product root (ESH4 and ESM4 are both ES), in order of each root's first round trip. */
  tripsByRoot: Record<string, number>;
}

/** Traits of every trader of a fills list, in order of each trader's first fill. */
export function traitsOf(fills: readonly TraderFill[]): TraderTraits[] {
  const byTrader = new Map<string, TraderFill[]>();
  for (const fill of fills) {
    const list = byTrader.get(fill.trader) ?? [];
    byTrader.set(fill.trader, list);
    list.push(fill);
  }
  return [...byTrader].map(([trader, own]) => traderTraits(trader, roundTripsOf(own)));
}

export function traderTraits(trader: string, trips: readonly RoundTrip[]): TraderTraits {
  const perDay = new Map<string, number>();
  for (const trip of trips) {
    const date = tradeDateOf(trip.entryMs);
    perDay.set(date, (perDay.get(date) ?? 0) + 1);
  }
  const losing = trips.filter((t) => t.pnlTicks < 0);
  const winning = trips.filter((t) => t.pnlTicks > 0);
  const bracketExit = (t: RoundTrip) => !isClosingTimeExit(t.exitMs);
  const tripsByRoot: Record<string, number> = {};
  for (const trip of trips) {
    const root = parseSymbol(trip.symbol).root;
    tripsByRoot[root] = (tripsByRoot[root] ?? 0) + 1;
  }
  return {
    trader,
    roundTrips: trips.length,
    activeDays: perDay.size,
    entriesPerDay: [...perDay.values()],
    contracts: trips.map((t) => t.quantity),
    stopTicks: losing.filter(bracketExit).map((t) => t.exitDistanceTicks),
    targetTicks: winning.filter(bracketExit).map((t) => t.exitDistanceTicks),
    holdMinutes: trips.map((t) => Math.floor((t.exitMs - t.entryMs) / 60_000)),
    wins: winning.length,
    losses: losing.length,
    entryMinutes: trips.map((t) => chicagoMinuteOf(t.entryMs)),
    tripsByRoot,
  };
}

const SEVEN_HOURS_MS = 7 * 3_600_000;
const CLOSING_TIME = { from: 15 * 60 + 45, to: 16 * 60 };

/** An exit between 15:45 and 16:00 CT: flattening for the close, not a stop or a target. */
export function isClosingTimeExit(timeMs: number): boolean {
  const minute = chicagoMinuteOf(timeMs);
  return minute >= CLOSING_TIME.from && minute < CLOSING_TIME.to;
}

/** The CME trade date of an instant: the Globex day starts at 17:00 CT, so evening entries count for the next date. */
export function tradeDateOf(timeMs: number): string {
  return chicagoDateOf(timeMs + SEVEN_HOURS_MS);
}

/** Minutes past midnight, Chicago time. */
export function chicagoMinuteOf(timeMs: number): number {
  const [hh, mm] = chicagoIso(timeMs).slice(11, 16).split(':');
  return Number(hh) * 60 + Number(mm);
}
