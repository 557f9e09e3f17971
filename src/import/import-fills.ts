// Broker exports → propsim's fills (docs/backtesting.md#importing-broker-exports): each row read into a fill, a
// fill exported twice (same id) kept once, spreads and empty fills skipped, and per trader how many rows were read,
// kept, deduplicated and skipped. Fills come out in time order, ties in file order.
import type { TraderFill } from './trader-fill.js';
import { MarketDataError, quoteText } from '../market/market-data-error.js';
import { readExportTable, type ExportRow, type ExportTable } from './export-table.js';
import { fileDateOrder } from './date-order.js';
import {
  hasOffset,
  isKnownZone,
  parseExportTime,
  slashDateReadings,
  TIME_EXPECTED,
  type DateOrder,
} from './export-time.js';
import {
  parseColumnMap,
  resolveColumns,
  type FillColumns,
  type FillExportFormat,
  type FillField,
} from './fill-export-format.js';
import { FieldValueError, isSpread, readCommission, readPrice, readQuantity, readSide } from './fill-fields.js';
import { GENERIC } from './generic.js';
import { ImportInputError, MissingZoneError } from './import-input-error.js';
import { NINJATRADER } from './ninjatrader.js';
import { TRADOVATE } from './tradovate.js';

export const FILL_FORMATS = { tradovate: TRADOVATE, ninjatrader: NINJATRADER, generic: GENERIC } as const;
export type FillFormatName = keyof typeof FILL_FORMATS;
export const FILL_FORMAT_NAMES = Object.keys(FILL_FORMATS) as FillFormatName[];

/** A fill as the back-test takes it (trader-fills.ts), with where it was read and its commission ("" for none). */
export interface ImportedFill extends Omit<TraderFill, 'commission'> {
  commission: string;
  file: string;
}

export interface TraderCounts {
  read: number;
  kept: number;
  deduplicated: number;
  skipped: number;
}

export interface ImportedFills {
  fills: ImportedFill[];
  /** Whether any export had a commission column (then the output has one). */
  hasCommission: boolean;
  /** Per trader, in the order traders first appear. */
  counts: Map<string, TraderCounts>;
  /** The fills kept once, each named with both lines. */
  warnings: string[];
  /** Files with no fill-id column, and the names looked for: nothing in them is de-duplicated. */
  withoutIds: Array<{ file: string; looked: readonly string[] }>;
}

export interface FillImportOptions {
  format: FillFormatName;
  /** IANA zone of times without an offset. */
  tz?: string;
  /** `FIELD=COLUMN` pairs. */
  map?: readonly string[];
  /** The order of day and month in slash dates; absent: each file must show it (date-order.ts). */
  dateOrder?: DateOrder;
  /** The sha256 a file's bytes must have, by path (a queue worker's, docs/scaling.md#data-files). */
  sha256?: ReadonlyMap<string, string>;
}

export function importFills(files: readonly string[], options: FillImportOptions): ImportedFills {
  if (options.tz !== undefined && !isKnownZone(options.tz))
    throw new ImportInputError(
      `--tz ${JSON.stringify(options.tz)}: expected an IANA time zone such as America/Chicago`,
    );
  const format = FILL_FORMATS[options.format];
  const map = parseColumnMap(options.map ?? []);
  const result: ImportedFills = { fills: [], hasCommission: false, counts: new Map(), warnings: [], withoutIds: [] };
  const seenIds = new Map<string, string>();
  for (const file of files) {
    const table = readExportTable(file, options.sha256?.get(file));
    const columns = resolveColumns(table, format, map);
    const zone = zoneFor(table, format, columns, options.tz);
    const order = options.dateOrder ?? fileDateOrder(table, columns.ts);
    if (columns.commission.index >= 0) result.hasCommission = true;
    if (columns.id.index < 0) result.withoutIds.push({ file, looked: columns.id.looked });
    for (const row of table.rows) {
      const trader = field(row, columns.trader.index).trim();
      const counts = countsOf(result.counts, trader);
      counts.read++;
      const id = columns.id.index < 0 ? '' : field(row, columns.id.index).trim();
      const where = `${file}:${row.line}`;
      const first = id === '' ? undefined : seenIds.get(`${trader}\u0000${id}`);
      if (first !== undefined) {
        counts.deduplicated++;
        result.warnings.push(`${where}: ${columns.id.name} ${id} was already read at ${first}; kept once`);
        continue;
      }
      if (id !== '') seenIds.set(`${trader}\u0000${id}`, where);
      const fill = readFill(table, row, columns, format, { zone, order }, trader);
      if (fill === undefined) {
        counts.skipped++;
        continue;
      }
      counts.kept++;
      result.fills.push(fill);
    }
  }
  // Array.prototype.sort is stable: fills of one instant keep their file order.
  result.fills.sort((a, b) => a.timeMs - b.timeMs);
  return result;
}

/** The zone to place times without an offset in; fails when the export needs one and none was given. */
function zoneFor(
  table: ExportTable,
  format: FillExportFormat,
  columns: FillColumns,
  tz: string | undefined,
): string | undefined {
  const { zoning, why } = format.zoning(columns.ts.name);
  if (zoning === 'utc') return 'UTC'; // a UTC column, whatever --tz says of the others
  if (zoning === 'export' && tz === undefined) throw new MissingZoneError(table.file, columns.ts.name, why);
  return tz;
}

/** One row as a fill, or undefined for a row that is no fill of its own (a spread, a quantity of 0). */
function readFill(
  table: ExportTable,
  row: ExportRow,
  columns: FillColumns,
  format: FillExportFormat,
  { zone, order }: { zone: string | undefined; order: DateOrder },
  trader: string,
): ImportedFill | undefined {
  const read = <T>(name: FillField, parse: (text: string) => T): T => {
    const text = field(row, columns[name].index);
    try {
      return parse(text);
    } catch (error) {
      if (!(error instanceof FieldValueError)) throw error;
      throw new MarketDataError(table.file, row.line, columns[name].name, error.expected, quoteText(text));
    }
  };
  if (trader === '') read('trader', () => failValue('an account or trader id'));
  const instrumentText = field(row, columns.instrument.index);
  if (isSpread(instrumentText)) return undefined;
  const quantity = read('quantity', readQuantity);
  if (quantity === 0) return undefined;
  const contract = read('instrument', format.contract);
  const timeText = field(row, columns.ts.index);
  if (zone === undefined && !hasOffset(timeText))
    throw new MissingZoneError(table.file, columns.ts.name, `line ${row.line}: ${quoteText(timeText)}`);
  return {
    timeMs: read('ts', (text) => {
      const ms = parseExportTime(text, zone, order);
      return Number.isNaN(ms) ? failValue(timeExpected(text, order)) : ms;
    }),
    trader,
    symbol: contract.symbol,
    side: read('side', readSide),
    quantity,
    price: read('price', (text) => readPrice(text, contract)),
    commission: columns.commission.index < 0 ? '' : read('commission', readCommission),
    file: table.file,
    line: row.line,
  };
}

/** What a time should have been: for a slash date that reads only in the other order, that order's date. */
function timeExpected(text: string, order: DateOrder): string {
  const readings = slashDateReadings(text);
  if (readings?.[order] !== undefined || readings?.[order === 'mdy' ? 'dmy' : 'mdy'] === undefined)
    return TIME_EXPECTED;
  return order === 'mdy' ? 'a month/day/year date (date order mdy)' : 'a day/month/year date (date order dmy)';
}

function failValue(expected: string): never {
  throw new FieldValueError(expected);
}

function field(row: ExportRow, index: number): string {
  return index < 0 ? '' : (row.fields[index] ?? '');
}

function countsOf(counts: Map<string, TraderCounts>, trader: string): TraderCounts {
  let entry = counts.get(trader);
  if (!entry) counts.set(trader, (entry = { read: 0, kept: 0, deduplicated: 0, skipped: 0 }));
  return entry;
}
