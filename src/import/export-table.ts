// A broker's CSV export as a header and rows that know their line: csv-parse copes with what exports carry (a UTF-8
// BOM, CRLF line ends, quoted fields with commas, blank trailing lines). docs/backtesting.md#importing-broker-exports
import { parse } from 'csv-parse/sync';
import { readCheckedFile } from '../market/content-check.js';
import { LineTooLongError, lineTooLongInFile, MAX_LINE_BYTES } from '../market/line-blocks.js';
import { MarketDataError, quoteText } from '../market/market-data-error.js';

export interface ExportRow {
  readonly fields: readonly string[];
  /** 1-based line of the row in its file, the header being line 1. */
  readonly line: number;
}

export interface ExportTable {
  readonly file: string;
  /** Column names as written, trimmed; a trailing comma makes a last column named "". */
  readonly header: readonly string[];
  readonly rows: readonly ExportRow[];
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/** @param sha256 what the file's bytes must hash to (a queue worker's check); absent, nothing is checked */
export function readExportTable(file: string, sha256?: string): ExportTable {
  let records: ParsedRecord[];
  try {
    records = parse(readCheckedFile(file, sha256), {
      bom: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
      info: true,
      max_record_size: MAX_LINE_BYTES, // docs/market-data.md#line-length, as the market readers
    }) as unknown as ParsedRecord[];
  } catch (error) {
    if (error instanceof MarketDataError) throw error; // the content is not the coordinator's
    const where = (error as { lines?: number }).lines ?? 0;
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE')
      throw lineTooLongInFile(file, where, new LineTooLongError(MAX_LINE_BYTES));
    throw new MarketDataError(file, where, undefined, 'a CSV file', quoteText((error as Error).message));
  }
  const [first, ...rest] = records;
  if (!first) throw new MarketDataError(file, 1, undefined, 'a header row', 'an empty file');
  return {
    file,
    header: first.record.map((name) => name.trim()),
    rows: rest.map(({ record, info }) => ({ fields: record, line: info.lines })),
  };
}
