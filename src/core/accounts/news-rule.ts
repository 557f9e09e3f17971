// News blackouts (docs/risk-rules.md#news-blackouts): risk_profile.news read from its checked text, its CSV form, and
// the windows the kernel asks about. A window is [event − before_minutes, event + after_minutes): an order or a fill
// at its start is in it, one at its end is not, as a session is [open, close). An event applies to the roots it
// names (none: every root) and to the micros of a mini it names. Events are kept in time order. Pure: a file is read
// by the layer that found it (src/scenario/news-files.ts), which hands its rows here.
import type { Static } from 'typebox';
import { instrumentByRoot, allInstruments } from '../instruments.js';
import { chicagoIso } from '../calendar/dates.js';
import { isoUtc, parseTimeMs, TimeInputError } from '../time.js';
import { at, FieldError } from '../validation/input-fields.js';
import type { NewsAction, NewsEvents, NewsFileSchema, NewsOverlay as NewsOverlayText } from './timed-rules-schema.js';

export { NEWS_ACTIONS, type NewsAction } from './timed-rules-schema.js';

export const DEFAULT_NEWS_MINUTES = 2;
const MINUTE_MS = 60_000;

export interface NewsEvent {
  readonly timeMs: number;
  /** The roots it applies to; empty: every root. */
  readonly roots: readonly string[];
  readonly name?: string;
}

export interface NewsRule {
  /** In time order. */
  readonly events: readonly NewsEvent[];
  readonly beforeMinutes: number;
  readonly afterMinutes: number;
  readonly action: NewsAction;
}

/** A news overlay: each field replaces the plan's (events as a whole). */
export interface NewsRuleOverlay {
  readonly events?: readonly NewsEvent[];
  readonly beforeMinutes?: number;
  readonly afterMinutes?: number;
  readonly action?: NewsAction;
}

/** A file that reached a reader which reads none: the API, a kernel command. */
function unreadFile(path: string): never {
  throw new FieldError(
    at(path, 'file'),
    'a news file is read only from a file that names it (a scenario, plan file, back-test config or sandbox seed); ' +
      'here give the events inline, as news.events',
  );
}

/** risk_profile.news of a plan, checked. */
export function readNewsRule(text: Static<typeof NewsFileSchema>, path: string): NewsRule {
  if (text.file !== undefined) unreadFile(path);
  if (text.events === undefined)
    throw new FieldError(path, 'expected events (inline) or file (a CSV beside the file that names it), got neither');
  return freezeNews({
    events: readNewsEvents(text.events, at(path, 'events')),
    beforeMinutes: text.before_minutes ?? DEFAULT_NEWS_MINUTES,
    afterMinutes: text.after_minutes ?? DEFAULT_NEWS_MINUTES,
    action: text.action ?? 'no_entry',
  });
}

/** risk_profile.news in an overlay (null: remove the rule). */
export function readNewsOverlay(text: NonNullable<Static<typeof NewsOverlayText>>, path: string): NewsRuleOverlay {
  if (text.file !== undefined) unreadFile(path);
  return {
    ...(text.events === undefined ? {} : { events: readNewsEvents(text.events, at(path, 'events')) }),
    ...(text.before_minutes === undefined ? {} : { beforeMinutes: text.before_minutes }),
    ...(text.after_minutes === undefined ? {} : { afterMinutes: text.after_minutes }),
    ...(text.action === undefined ? {} : { action: text.action }),
  };
}

/** The plan's rule under an overlay: null removes it, fields replace the plan's; a new rule needs its events. */
export function mergeNewsRule(
  base: NewsRule | undefined,
  overlay: NewsRuleOverlay | null | undefined,
  path: string,
): NewsRule | undefined {
  if (overlay === null) return undefined;
  if (overlay === undefined) return base;
  const events = overlay.events ?? base?.events;
  if (events === undefined)
    throw new FieldError(at(path, 'events'), 'expected the events: the plan has no news rule to take them from');
  return freezeNews({
    events,
    beforeMinutes: overlay.beforeMinutes ?? base?.beforeMinutes ?? DEFAULT_NEWS_MINUTES,
    afterMinutes: overlay.afterMinutes ?? base?.afterMinutes ?? DEFAULT_NEWS_MINUTES,
    action: overlay.action ?? base?.action ?? 'no_entry',
  });
}

function readNewsEvents(text: Static<typeof NewsEvents>, path: string): readonly NewsEvent[] {
  const events = text.map((event, i) => {
    let timeMs: number;
    try {
      timeMs = parseTimeMs(event.time, at(at(path, i), 'time'));
    } catch (error) {
      if (error instanceof TimeInputError)
        throw new FieldError(error.field, `expected ${error.expected}, got ${JSON.stringify(error.received)}`);
      throw error;
    }
    return Object.freeze({
      timeMs,
      roots: Object.freeze([...(event.roots ?? [])]),
      ...(event.name === undefined ? {} : { name: event.name }),
    });
  });
  // In time order, ties as written: windows are found by binary search.
  return Object.freeze(
    events
      .map((event, i) => ({ event, i }))
      .sort((a, b) => a.event.timeMs - b.event.timeMs || a.i - b.i)
      .map((e) => e.event),
  );
}

function freezeNews(rule: NewsRule): NewsRule {
  return Object.freeze(rule);
}

/** The rule as written (journal inputs, state.json): times in ISO 8601 UTC. */
export function newsJson(rule: NewsRule): Record<string, unknown> {
  return {
    events: rule.events.map((event) => ({
      time: isoUtc(event.timeMs),
      ...(event.roots.length === 0 ? {} : { roots: [...event.roots] }),
      ...(event.name === undefined ? {} : { name: event.name }),
    })),
    before_minutes: rule.beforeMinutes,
    after_minutes: rule.afterMinutes,
    action: rule.action,
  };
}

// ---- windows ----

export function windowStartMs(rule: NewsRule, event: NewsEvent): number {
  return event.timeMs - rule.beforeMinutes * MINUTE_MS;
}

export function windowEndMs(rule: NewsRule, event: NewsEvent): number {
  return event.timeMs + rule.afterMinutes * MINUTE_MS;
}

/** Whether a list of roots covers a root: it is empty (every root), names the root, or names its mini (MES: ES). */
export function rootsCover(roots: readonly string[], root: string, miniRoot: string | undefined): boolean {
  if (roots.length === 0) return true;
  return roots.includes(root) || (miniRoot !== undefined && roots.includes(miniRoot));
}

/** Whether the event applies to a root (rootsCover of its roots). */
export function eventCoversRoot(event: NewsEvent, root: string, miniRoot: string | undefined): boolean {
  return rootsCover(event.roots, root, miniRoot);
}

/** The first event at or after index `from` whose window ends after `timeMs` (events are in time order). */
function firstEndingAfter(rule: NewsRule, timeMs: number): number {
  const afterMs = rule.afterMinutes * MINUTE_MS;
  let lo = 0;
  let hi = rule.events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rule.events[mid]!.timeMs + afterMs > timeMs) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The event whose window holds `timeMs` for this root, the earliest when windows overlap; undefined outside them. */
export function blackoutAt(
  rule: NewsRule,
  timeMs: number,
  root: string,
  miniRoot: string | undefined,
): NewsEvent | undefined {
  const beforeMs = rule.beforeMinutes * MINUTE_MS;
  for (let i = firstEndingAfter(rule, timeMs); i < rule.events.length; i++) {
    const event = rule.events[i]!;
    if (event.timeMs - beforeMs > timeMs) return undefined;
    if (eventCoversRoot(event, root, miniRoot)) return event;
  }
  return undefined;
}

/** The first window start strictly after `afterMs`, if any. */
export function nextWindowStartMs(rule: NewsRule, afterMs: number): number | undefined {
  const beforeMs = rule.beforeMinutes * MINUTE_MS;
  let lo = 0;
  let hi = rule.events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rule.events[mid]!.timeMs - beforeMs > afterMs) hi = mid;
    else lo = mid + 1;
  }
  const event = rule.events[lo];
  return event === undefined ? undefined : event.timeMs - beforeMs;
}

/** The events whose windows start at `atMs` (by binary search: a timer asks this of every account it fires for). */
export function eventsStartingAt(rule: NewsRule, atMs: number): NewsEvent[] {
  const timeMs = atMs + rule.beforeMinutes * MINUTE_MS;
  let lo = 0;
  let hi = rule.events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rule.events[mid]!.timeMs < timeMs) lo = mid + 1;
    else hi = mid;
  }
  const starting: NewsEvent[] = [];
  for (let i = lo; i < rule.events.length && rule.events[i]!.timeMs === timeMs; i++) starting.push(rule.events[i]!);
  return starting;
}

/** An event in messages, in exchange time: `CPI at 2026-03-11T07:30:00.000-05:00`. */
export function eventWords(event: NewsEvent): string {
  return `${event.name === undefined ? 'the news event' : event.name} at ${chicagoIso(event.timeMs)}`;
}

// ---- the CSV form ----

/** A row of a news CSV as its event's text. */
export type NewsEventText = Static<typeof NewsEvents>[number];

/** A bad line of a news CSV: 1-based line and column, the column's name, what was wrong. */
export class NewsCsvError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`line ${line}: ${field === '' ? '' : `${field}: `}${detail}`);
    this.name = 'NewsCsvError';
  }
}

const CSV_COLUMNS = ['time', 'roots', 'name'] as const;
const KNOWN_ROOTS = new Set(allInstruments().map((spec) => spec.root));

/**
 * A news CSV (docs/risk-rules.md#news-blackouts): a header naming `time` and optionally `roots` and `name`, in any
 * order; a row per event: time ISO 8601 with an offset or Z, or Unix ms; roots as `ES|NQ` (empty: every root); name
 * free text (quote it when it has a comma). Blank lines and lines starting with `#` are skipped.
 */
export function parseNewsCsv(text: string): NewsEventText[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let header: string[] | undefined;
  const events: NewsEventText[] = [];
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const cells = splitCsvLine(raw, lineNo);
    if (header === undefined) {
      header = cells.map((cell) => cell.value.trim().toLowerCase());
      header.forEach((name, c) => {
        if (!(CSV_COLUMNS as readonly string[]).includes(name))
          throw new NewsCsvError(lineNo, cells[c]!.column, name, `unknown column; expected ${CSV_COLUMNS.join(', ')}`);
        if (header!.indexOf(name) !== c) throw new NewsCsvError(lineNo, cells[c]!.column, name, 'a column named twice');
      });
      if (!header.includes('time'))
        throw new NewsCsvError(
          lineNo,
          1,
          '',
          `expected a header naming the time column (and optionally roots, name), got "${raw}"`,
        );
      return;
    }
    if (cells.length !== header.length)
      throw new NewsCsvError(lineNo, 1, '', `expected ${header.length} fields like the header, got ${cells.length}`);
    const field = (name: string) => {
      const c = header!.indexOf(name);
      return c < 0 ? undefined : cells[c]!;
    };
    const time = field('time')!;
    const value = time.value.trim();
    try {
      parseTimeMs(value, 'time');
    } catch (error) {
      if (error instanceof TimeInputError)
        throw new NewsCsvError(lineNo, time.column, 'time', `expected ${error.expected}, got ${JSON.stringify(value)}`);
      throw error;
    }
    const rootsCell = field('roots');
    const roots = (rootsCell?.value ?? '')
      .split('|')
      .map((root) => root.trim())
      .filter((root) => root !== '');
    for (const root of roots)
      if (!KNOWN_ROOTS.has(root))
        throw new NewsCsvError(
          lineNo,
          rootsCell!.column,
          'roots',
          `expected catalog roots separated by | (like ES|NQ; empty: every root), got unknown root ${JSON.stringify(root)}`,
        );
    const name = field('name')?.value.trim() ?? '';
    events.push({
      time: /^-?\d+$/.test(value) ? Number(value) : value,
      ...(roots.length === 0 ? {} : { roots: [...new Set(roots)] }),
      ...(name === '' ? {} : { name: name.slice(0, 200) }),
    });
  });
  if (header === undefined)
    throw new NewsCsvError(1, 1, '', 'expected a header line naming the time column, got an empty file');
  if (events.length === 0) throw new NewsCsvError(lines.length, 1, '', 'expected at least one event after the header');
  return events;
}

/** One CSV line's fields with the column each starts at; "" inside quotes is a quote. */
function splitCsvLine(line: string, lineNo: number): { value: string; column: number }[] {
  const cells: { value: string; column: number }[] = [];
  let i = 0;
  for (;;) {
    const column = i + 1;
    let value = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw new NewsCsvError(lineNo, column, '', 'a quoted field without its closing quote');
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      if (i < line.length && line[i] !== ',')
        throw new NewsCsvError(lineNo, i + 1, '', 'expected a comma after the closing quote');
    } else {
      const end = line.indexOf(',', i);
      value = line.slice(i, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    }
    cells.push({ value, column });
    if (i >= line.length) return cells;
    i++; // the comma
  }
}

/** The root's mini, for a micro (MES: ES). */
export function miniRootOf(root: string): string | undefined {
  return instrumentByRoot(root).miniRoot;
}
