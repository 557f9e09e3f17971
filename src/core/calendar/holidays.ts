// Exchange holidays: the validated, in-memory form of a holiday data file (fixtures/calendar/cme-holidays.yaml
// or a user's file of the same shape). Parsing an already-decoded document is pure; reading the file is
// the job of src/market/holiday-file.ts.
import { PRODUCT_FAMILIES, type ProductFamily } from '../instruments.js';
import { isIsoDate, isWeekend } from './dates.js';

/** How a holiday changes one trade date for one product group. */
export type HolidayRule =
  | { kind: 'closed' }
  /** The session ends at `haltMinutes` (CT, past midnight); the next opens at `resumeMinutes` (default 17:00). */
  | { kind: 'halt'; haltMinutes: number; resumeMinutes?: number };

export interface HolidayEntry {
  date: string;
  name: string;
  rules: ReadonlyMap<ProductFamily, HolidayRule>;
}

export class HolidayTable {
  private readonly byDate: ReadonlyMap<string, HolidayEntry>;

  constructor(readonly entries: readonly HolidayEntry[]) {
    this.byDate = new Map(entries.map((e) => [e.date, e]));
  }

  ruleFor(date: string, family: ProductFamily): HolidayRule | undefined {
    return this.byDate.get(date)?.rules.get(family);
  }

  nameOf(date: string): string | undefined {
    return this.byDate.get(date)?.name;
  }

  /** The calendar years the entries span (first and last), or undefined for an empty table. */
  yearsCovered(): { first: number; last: number } | undefined {
    const first = this.entries[0];
    const last = this.entries[this.entries.length - 1];
    return first && last ? { first: Number(first.date.slice(0, 4)), last: Number(last.date.slice(0, 4)) } : undefined;
  }

  static empty(): HolidayTable {
    return new HolidayTable([]);
  }
}

export class HolidayFileError extends Error {
  constructor(
    readonly source: string,
    readonly path: string,
    readonly expected: string,
  ) {
    super(`${source}: ${path}: expected ${expected}`);
    this.name = 'HolidayFileError';
  }
}

const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;
const GROUP_KEYS = ['all', ...PRODUCT_FAMILIES];

/** Validates a decoded holiday document; every error names the source and the field path. */
export function parseHolidayDocument(doc: unknown, source: string): HolidayTable {
  const fail = (path: string, expected: string): never => {
    throw new HolidayFileError(source, path, expected);
  };
  if (!isRecord(doc)) return fail('(top level)', 'a mapping with version, timezone and holidays');
  if (doc.version !== 1) fail('version', '1');
  if (doc.timezone !== 'America/Chicago') fail('timezone', '"America/Chicago" (times are CT)');
  if (!Array.isArray(doc.holidays)) return fail('holidays', 'a list of holiday entries');
  const entries: HolidayEntry[] = [];
  doc.holidays.forEach((raw: unknown, i: number) => {
    const at = `holidays[${i}]`;
    if (!isRecord(raw)) return fail(at, 'a mapping with date, name and groups');
    const { date, name, groups } = raw;
    if (typeof date !== 'string' || !isIsoDate(date)) return fail(`${at}.date`, 'a quoted date "YYYY-MM-DD"');
    if (isWeekend(date)) fail(`${at}.date`, `a weekday (${date} is a weekend day and never a trade date)`);
    const previous = entries[entries.length - 1];
    if (previous && previous.date >= date)
      fail(`${at}.date`, `dates in increasing order, one entry per date (${date} follows ${previous.date})`);
    if (typeof name !== 'string' || name === '') fail(`${at}.name`, 'a non-empty name');
    if (!isRecord(groups) || Object.keys(groups).length === 0)
      return fail(`${at}.groups`, `a mapping of ${GROUP_KEYS.join(', ')} to rules`);
    entries.push({ date, name: String(name), rules: parseGroups(groups, `${at}.groups`, fail) });
  });
  return new HolidayTable(entries);
}

function parseGroups(
  groups: Record<string, unknown>,
  at: string,
  fail: (path: string, expected: string) => never,
): Map<ProductFamily, HolidayRule> {
  const rules = new Map<ProductFamily, HolidayRule>();
  const keys = Object.keys(groups);
  if (keys.includes('all') && keys.length > 1) fail(at, '`all` alone, or group keys without `all`');
  for (const key of keys) {
    if (!GROUP_KEYS.includes(key)) fail(`${at}.${key}`, `a group key, one of ${GROUP_KEYS.join(', ')}`);
    const rule = parseRule(groups[key], `${at}.${key}`, fail);
    const families = key === 'all' ? PRODUCT_FAMILIES : [key as ProductFamily];
    for (const family of families) rules.set(family, rule);
  }
  return rules;
}

function parseRule(raw: unknown, at: string, fail: (path: string, expected: string) => never): HolidayRule {
  const expected = '`closed` or { halt: "HH:MM", resume?: "HH:MM" }';
  if (raw === 'closed') return { kind: 'closed' };
  if (!isRecord(raw)) return fail(at, expected);
  const unknown = Object.keys(raw).filter((k) => k !== 'halt' && k !== 'resume');
  if (unknown.length > 0) fail(`${at}.${unknown[0]}`, `only halt and resume (${expected})`);
  const haltMinutes = minutesOf(raw.halt);
  if (haltMinutes === undefined) return fail(`${at}.halt`, 'a quoted CT time "HH:MM"');
  if (raw.resume === undefined) return { kind: 'halt', haltMinutes };
  const resumeMinutes = minutesOf(raw.resume);
  if (resumeMinutes === undefined || resumeMinutes < haltMinutes) {
    return fail(`${at}.resume`, 'a quoted CT time "HH:MM" no earlier than the halt');
  }
  return { kind: 'halt', haltMinutes, resumeMinutes };
}

function minutesOf(value: unknown): number | undefined {
  const match = typeof value === 'string' ? TIME_OF_DAY.exec(value) : null;
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
