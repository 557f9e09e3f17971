// What each broker export format says about its columns: which column holds each field of a fill, how its times
// are zoned, and how it spells a contract. `--map FIELD=COLUMN` overrides any of the columns.
import type { ParsedSymbol } from '../core/instruments.js';
import { MarketDataError, quoteText } from '../market/market-data-error.js';
import { type ExportTable } from './export-table.js';
import { ImportInputError } from './import-input-error.js';

export const FILL_FIELDS = ['ts', 'trader', 'instrument', 'side', 'quantity', 'price', 'commission', 'id'] as const;
export type FillField = (typeof FILL_FIELDS)[number];
const OPTIONAL_FIELDS: readonly FillField[] = ['commission', 'id'];

/**
 * How the `ts` column is zoned: `utc` (a time without an offset is UTC), `export` (the exporting machine's zone:
 * --tz is required) or `row` (--tz is needed only for a time without an offset).
 */
export type TimeZoning = 'utc' | 'export' | 'row';

export interface FillExportFormat {
  readonly name: string;
  /** Candidate column names of each field, first found wins; none for a field the format does not have. */
  columnsOf(table: ExportTable): Partial<Record<FillField, readonly string[]>>;
  /** How the ts column the format picked is zoned, and why (for the message when --tz is missing). */
  zoning(tsColumn: string): { zoning: TimeZoning; why: string };
  /** The contract named by the instrument field; throws FieldValueError. */
  contract(text: string): ParsedSymbol;
}

/** Each field's column position (-1 for an optional field the export lacks), its header name and the names tried. */
export type FillColumns = Record<FillField, { index: number; name: string; looked: readonly string[] }>;

/** `FIELD=COLUMN` flags as a map; refuses unknown fields. */
export function parseColumnMap(pairs: readonly string[]): Partial<Record<FillField, string>> {
  const map: Partial<Record<FillField, string>> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const field = pair.slice(0, at) as FillField;
    if (at < 1 || at === pair.length - 1 || !FILL_FIELDS.includes(field))
      throw new ImportInputError(
        `--map ${JSON.stringify(pair)}: expected FIELD=COLUMN with FIELD one of ${FILL_FIELDS.join(', ')}`,
      );
    map[field] = pair.slice(at + 1);
  }
  return map;
}

/**
 * Finds each field's column, the map first; a required field with no column, or a mapped one the export lacks, fails
 * on the header line. An optional field the export lacks gets index -1, and `looked` says which names were tried.
 */
export function resolveColumns(
  table: ExportTable,
  format: FillExportFormat,
  map: Partial<Record<FillField, string>>,
): FillColumns {
  const candidates = format.columnsOf(table);
  const resolved = {} as FillColumns;
  for (const field of FILL_FIELDS) {
    const mapped = map[field];
    const names = mapped !== undefined ? [mapped] : (candidates[field] ?? []);
    const name = names.find((n) => table.header.includes(n));
    if (name === undefined && (mapped !== undefined || !OPTIONAL_FIELDS.includes(field))) {
      const wanted = names.length === 0 ? `a column for ${field}` : `a column named ${names.join(' or ')}`;
      const how = mapped === undefined ? `or --map ${field}=COLUMN` : `--map ${field}=${mapped}`;
      throw new MarketDataError(
        table.file,
        1,
        undefined,
        `${wanted} for the ${field} of each fill in a ${format.name} export (${how})`,
        quoteText(table.header.join(',')),
      );
    }
    resolved[field] = { index: name === undefined ? -1 : table.header.indexOf(name), name: name ?? '', looked: names };
  }
  return resolved;
}
