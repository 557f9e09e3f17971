// The header row of a market CSV: columns are matched by name, in any order; unknown, duplicate or missing
// names are errors on line 1.
import { MarketDataError, quoteText } from './market-data-error.js';

export interface HeaderLayout {
  /** The columns as users read them in docs/market-data.md, for messages: "ts,instrument,price[,size]". */
  readonly shape: string;
  readonly required: readonly string[];
  readonly optional: readonly string[];
  /** Columns that mark a file of another format, and what to tell whoever read it as this one. */
  readonly otherFormat?: { readonly columns: readonly string[]; readonly advice: string };
}

export const QUOTING_EXPECTED = 'unquoted fields (quoting is not supported on this fast path)';

const HEADER_LINE = 1;
const UTF8_BOM = '\uFEFF';

export class CsvHeader {
  private constructor(
    readonly file: string,
    readonly names: readonly string[],
    readonly text: string,
  ) {}

  /** Checks a header line against a layout. */
  static parse(file: string, text: string, layout: HeaderLayout): CsvHeader {
    const line = text.startsWith(UTF8_BOM) ? text.slice(1) : text;
    const fail = (column: string | undefined, expected: string, received: string): never => {
      throw new MarketDataError(file, HEADER_LINE, column, expected, received);
    };
    if (line.trim() === '') fail(undefined, `a header row like ${layout.shape}`, 'an empty line');
    if (line.includes('"')) fail(undefined, QUOTING_EXPECTED, quoteText(line));
    const names = line.split(',').map((name) => name.trim());
    const known = new Set([...layout.required, ...layout.optional]);
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      const other = layout.otherFormat;
      const advice = other && other.columns.every((name) => names.includes(name)) ? ` (${other.advice})` : '';
      fail(
        unknown[0],
        `only the columns ${layout.shape}${advice}`,
        `the unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => quoteText(n)).join(', ')}`,
      );
    }
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    if (duplicate !== undefined) fail(duplicate, 'each column once', `it twice in ${quoteText(line)}`);
    const missing = layout.required.find((name) => !names.includes(name));
    if (missing !== undefined)
      fail(missing, `a column named ${missing} (the header is ${layout.shape})`, quoteText(line));
    return new CsvHeader(file, names, line);
  }

  /** Position of a column, -1 when the file has none. */
  indexOf(name: string): number {
    return this.names.indexOf(name);
  }

  /** Fails on line 1 about a column the layout cannot say alone (such as "one of ts or timestamp_utc"). */
  fail(column: string, expected: string): never {
    throw new MarketDataError(this.file, HEADER_LINE, column, expected, quoteText(this.text));
  }
}
