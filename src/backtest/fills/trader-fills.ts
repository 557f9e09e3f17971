// Historical trader activity for back-tests (docs/backtesting.md#historical-fills): a CSV of executions
// `ts,trader,instrument,side,quantity,price`, replayed into each trader's account like venue fills
// (docs/risk-rules.md#historical-fills). Small files: read whole with csv-parse; every bad row is named by line and
// column.
import { parseSymbol, UnknownInstrumentError } from '../../core/instruments.js';
import { Dec } from '../../core/money.js';
import { parseTimeMs, TimeInputError } from '../../core/time.js';
import { MarketDataError } from '../../market/market-data-error.js';
import { readExportTable } from '../../import/export-table.js';
import type { DateOrder } from '../../import/export-time.js';
import { importFills, type FillFormatName, type ImportedFills } from '../../import/import-fills.js';
import type { TraderFill } from '../../import/trader-fill.js';

export type { TraderFill };

const COLUMNS = ['ts', 'trader', 'instrument', 'side', 'quantity', 'price'];

/** `traders.fills` of a back-test config: propsim's CSV, or a broker export read by its importer. */
export interface FillsFileSpec {
  path: string;
  format?: FillFormatName;
  tz?: string;
  /** The order of month and day in the export's slash dates; absent: the file must show it. */
  dateOrder?: DateOrder;
  /** The firm's records of the traders' evaluations (validation/records-file.ts), absolute. */
  records?: string;
  /** Only these traders' fills (optimize's search and held-out parts, docs/optimizing.md); absent: every trader's. */
  traders?: readonly string[];
  /** The sha256 the file's bytes must have, and the records file's: set by a queue worker (docs/scaling.md#data-files). */
  sha256?: string;
  recordsSha256?: string;
}

/**
 * The fills of a config's file, whatever its format (docs/backtesting.md#importing-broker-exports). A broker export's
 * import (counts per trader, duplicate warnings) goes to `imported`, for the caller that tells the user.
 */
export function readFillsFile(
  spec: FillsFileSpec,
  imported: (result: ImportedFills) => void = () => undefined,
): TraderFill[] {
  const fills = readAllFills(spec, imported);
  if (spec.traders === undefined) return fills;
  const only = new Set(spec.traders);
  return fills.filter((fill) => only.has(fill.trader));
}

function readAllFills(spec: FillsFileSpec, imported: (result: ImportedFills) => void): TraderFill[] {
  if (spec.format === undefined) return readTraderFills(spec.path, spec.sha256);
  const result = importFills([spec.path], {
    format: spec.format,
    ...(spec.sha256 === undefined ? {} : { sha256: new Map([[spec.path, spec.sha256]]) }),
    ...(spec.tz === undefined ? {} : { tz: spec.tz }),
    ...(spec.dateOrder === undefined ? {} : { dateOrder: spec.dateOrder }),
  });
  imported(result);
  return result.fills.map(({ file: _file, commission, ...fill }) => ({
    ...fill,
    ...(commission ? { commission } : {}),
  }));
}

export function readTraderFills(path: string, sha256?: string): TraderFill[] {
  // The reader of broker exports: csv-parse with each row's line, the line-length limit and file:line errors.
  const { header, rows } = readExportTable(path, sha256);
  const withCommission = header.length === COLUMNS.length + 1 && header.at(-1) === 'commission';
  if (COLUMNS.some((c, i) => header[i] !== c) || (header.length !== COLUMNS.length && !withCommission)) {
    throw new MarketDataError(
      path,
      1,
      undefined,
      `the header ${COLUMNS.join(',')}[,commission]`,
      JSON.stringify(header.join(',')),
    );
  }
  const fills = rows.map((row) =>
    parseRow(
      path,
      row.fields.map((field) => field.trim()),
      row.line,
      header.length,
    ),
  );
  // Stable by time: executions of one instant keep their file order.
  return fills
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.timeMs - b.f.timeMs || a.i - b.i)
    .map(({ f }) => f);
}

function parseRow(path: string, row: string[], line: number, fields: number): TraderFill {
  const bad = (column: string, expected: string, got: unknown): never => {
    throw new MarketDataError(path, line, column, expected, JSON.stringify(got));
  };
  if (row.length !== fields) bad('(row)', `${fields} fields`, row.join(','));
  const [ts, trader, instrument, side, quantity, price, commission] = row as [
    string,
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  let timeMs: number;
  try {
    timeMs = parseTimeMs(ts, 'ts');
  } catch (error) {
    if (error instanceof TimeInputError) bad('ts', 'Unix ms or ISO 8601 with an offset or Z', ts);
    throw error;
  }
  if (trader === '') bad('trader', 'a trader id', trader);
  let tickSize: string;
  try {
    tickSize = parseSymbol(instrument).spec.tickSize;
  } catch (error) {
    if (error instanceof UnknownInstrumentError) bad('instrument', 'a GLOBEX symbol such as 6EH4', instrument);
    throw error;
  }
  if (side !== 'buy' && side !== 'sell') bad('side', 'buy or sell', side);
  if (!/^[1-9]\d*$/.test(quantity)) bad('quantity', 'a whole number of contracts >= 1', quantity);
  if (!/^-?\d+(\.\d+)?$/.test(price) || !new Dec(price).dividedBy(tickSize).isInteger())
    bad('price', `a decimal on the ${tickSize} tick grid`, price);
  if (commission !== undefined && commission !== '' && !/^-?\d+(\.\d+)?$/.test(commission))
    bad('commission', 'an amount in dollars such as 2.04, or nothing', commission);
  return {
    timeMs,
    trader,
    symbol: instrument,
    side: side as 'buy' | 'sell',
    quantity: Number(quantity),
    price,
    ...(commission ? { commission } : {}),
    line,
  };
}
