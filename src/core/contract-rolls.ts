// Which contract of a root a synthetic trader trades on a trade date: each product group's listed months and the
// date it rolls to the next contract (docs/market-data.md#contract-rolls). Dates are trade dates 'YYYY-MM-DD';
// weekdays are Monday to Friday, exchange holidays are not counted out (a roll date never moves for one).
import { addDays, dayOfWeek, isWeekend } from './calendar/dates.js';
import { canonicalSymbol, instrumentByRoot, type ProductFamily } from './instruments.js';

const QUARTERLY = [3, 6, 9, 12];
const EVERY_MONTH = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** The contract months a root lists for trading, where they differ from its product group's. */
const ROOT_MONTHS: Readonly<Record<string, readonly number[]>> = {
  GC: [2, 4, 6, 8, 10, 12], // G J M Q V Z
  MGC: [2, 4, 6, 8, 10, 12],
  SI: [3, 5, 7, 9, 12], // H K N U Z
};

const FAMILY_MONTHS: Readonly<Record<ProductFamily, readonly number[]>> = {
  equity_index: QUARTERLY,
  fx: QUARTERLY,
  interest_rates: QUARTERLY,
  energy: EVERY_MONTH,
  metals: [2, 4, 6, 8, 10, 12],
};

/** The contract months a root is traded in, January = 1. */
export function contractMonths(root: string): readonly number[] {
  return ROOT_MONTHS[root] ?? FAMILY_MONTHS[instrumentByRoot(root).family];
}

/**
 * The first trade date on which a trader no longer trades the contract of (year, month) but the next one: the roll.
 * - equity_index: the Thursday eight days before the third-Friday expiry (CME's roll date).
 * - fx: the second Wednesday, a week before the third-Wednesday settlement.
 * - interest_rates, metals: the third-to-last weekday of the month before the contract month, the weekday before the
 *   first intention (rates) or two before the first notice day (metals), so no position meets delivery.
 * - energy: the 15th of the month before the contract month (the next weekday when it is a weekend), days before
 *   the last trade date.
 */
export function rollDate(family: ProductFamily, year: number, month: number): string {
  switch (family) {
    case 'equity_index':
      return addDays(nthWeekday(year, month, 5, 3), -8);
    case 'fx':
      return nthWeekday(year, month, 3, 2);
    case 'interest_rates':
    case 'metals':
      return weekdayFromEnd(...monthBefore(year, month), 3);
    case 'energy':
      return weekdayOnOrAfter(isoDate(...monthBefore(year, month), 15));
  }
}

/** The contract (canonical symbol, `ESM4`) a trader of `root` trades on `tradeDate`. */
export function contractOn(root: string, tradeDate: string): string {
  const spec = instrumentByRoot(root);
  const months = contractMonths(root);
  let year = Number(tradeDate.slice(0, 4));
  let month = Number(tradeDate.slice(5, 7));
  // A contract month's roll falls in that month or the one before, so the answer is within the next 13 months.
  for (let k = 0; k <= 13; k++) {
    if (months.includes(month) && tradeDate < rollDate(spec.family, year, month))
      return canonicalSymbol({ symbol: root, root, spec, contract: { month, year } });
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
  throw new Error(`${root}: no contract listed within a year of ${tradeDate}`);
}

function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function monthBefore(year: number, month: number): [number, number] {
  return month === 1 ? [year - 1, 12] : [year, month - 1];
}

/** The n-th given weekday (0 = Sunday … 6 = Saturday) of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  const first = isoDate(year, month, 1);
  const offset = (weekday - dayOfWeek(first) + 7) % 7;
  return addDays(first, offset + 7 * (n - 1));
}

/** The n-th weekday (Monday to Friday) counted back from a month's last day: n = 1 is its last weekday. */
function weekdayFromEnd(year: number, month: number, n: number): string {
  const [nextYear, nextMonth] = month === 12 ? [year + 1, 1] : [year, month + 1];
  let date = addDays(isoDate(nextYear, nextMonth, 1), -1);
  for (let found = 0; ; date = addDays(date, -1)) {
    if (!isWeekend(date) && ++found === n) return date;
  }
}

function weekdayOnOrAfter(date: string): string {
  while (isWeekend(date)) date = addDays(date, 1);
  return date;
}
