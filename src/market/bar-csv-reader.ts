// `bars` market files (docs/market-data.md#bars): ts,open,high,low,close[,volume] with an instrument column or key; a
// timestamp_utc column (`YYYY-MM-DD HH:MM:SS`, UTC) may stand for ts and then marks the bar's END.
// Each bar is replayed as four prints: O,L,H,C when close >= open, else O,H,L,C, at its start, one third
// and two thirds into it, and its last ms; its volume is split over them, remainder to the first.
import type { CsvHeader } from './csv-header.js';
import { readCsvPrints, type CsvReadOptions, type PrintFormat, type PrintRowParser } from './csv-print-reader.js';
import { CsvRow } from './csv-row.js';
import { InstrumentColumn } from './instrument-column.js';
import { MarketDataError } from './market-data-error.js';
import { DEFAULT_BAR_MS, type MarketFileSpec } from './market-file-spec.js';
import type { SymbolTable } from './symbol-table.js';
import type { TickBatch, TickBatchBuilder } from './tick-batch.js';

/** Streams a bars file as batches of prints, four per bar; `fileIndex` is the file's place in its merged source. */
export function readBarCsv(
  spec: MarketFileSpec,
  fileIndex: number,
  symbols: SymbolTable,
  options?: CsvReadOptions,
): AsyncGenerator<TickBatch> {
  return readCsvPrints(spec, fileIndex, symbols, BARS_FORMAT, options);
}

const BARS_FORMAT: PrintFormat = {
  layout: {
    shape: 'ts (or timestamp_utc),open,high,low,close[,volume][,instrument]',
    required: ['open', 'high', 'low', 'close'],
    optional: ['ts', 'timestamp_utc', 'volume', 'instrument'],
  },
  printsPerRow: 4,
  open: (spec, header, fileIndex, symbols, checkOrder) =>
    new BarRowParser(spec, header, fileIndex, symbols, checkOrder),
};

class BarRowParser implements PrintRowParser {
  private readonly row: CsvRow;
  private readonly instruments: InstrumentColumn;
  private readonly barMs: number;
  /** The time column, and whether it stamps the bar's end (timestamp_utc) rather than its start (ts). */
  private readonly timeColumn: number;
  private readonly stampsEnd: boolean;
  private readonly columns: { open: number; high: number; low: number; close: number; volume: number };
  private previousStampMs = -Infinity;

  constructor(
    spec: MarketFileSpec,
    header: CsvHeader,
    private readonly fileIndex: number,
    symbols: SymbolTable,
    private readonly checkOrder: boolean,
  ) {
    this.barMs = spec.bar_ms ?? DEFAULT_BAR_MS;
    if (!Number.isSafeInteger(this.barMs) || this.barMs <= 0) {
      throw new MarketDataError(
        spec.path,
        0,
        undefined,
        'bar_ms to be a positive whole number of ms',
        String(spec.bar_ms),
      );
    }
    const ts = header.indexOf('ts');
    const stamp = header.indexOf('timestamp_utc');
    if (ts < 0 === stamp < 0) header.fail('ts', 'exactly one of the columns ts (bar start) or timestamp_utc (bar end)');
    this.stampsEnd = ts < 0;
    this.timeColumn = this.stampsEnd ? stamp : ts;
    this.row = new CsvRow(header);
    this.instruments = InstrumentColumn.open(spec, header, symbols);
    const at = (name: string): number => header.indexOf(name);
    this.columns = { open: at('open'), high: at('high'), low: at('low'), close: at('close'), volume: at('volume') };
  }

  parseRow(bytes: Buffer, start: number, end: number, line: number, out: TickBatchBuilder): void {
    const { row, columns, barMs } = this;
    row.split(bytes, start, end, line);
    const stampMs = this.stampsEnd ? row.utcStampMs(this.timeColumn) : row.timeMs(this.timeColumn);
    if (this.checkOrder) {
      row.checkNotBefore(
        this.timeColumn,
        stampMs,
        this.previousStampMs + barMs,
        "the previous bar's time plus bar_ms: bars must not overlap",
      );
      this.previousStampMs = stampMs;
    }
    const startMs = this.stampsEnd ? stampMs - barMs : stampMs;
    const instrument = this.instruments.resolve(row);
    const open = row.priceTicks(columns.open, instrument.grid);
    const high = row.priceTicks(columns.high, instrument.grid);
    const low = row.priceTicks(columns.low, instrument.grid);
    const close = row.priceTicks(columns.close, instrument.grid);
    if (high < open || high < close) row.fail(columns.high, "a high at or above the bar's open and close");
    if (low > open || low > close) row.fail(columns.low, "a low at or below the bar's open and close");
    const volume = columns.volume < 0 || row.isEmpty(columns.volume) ? Infinity : row.wholeNumber(columns.volume, 0);
    pushBarPrints(out, { startMs, barMs, open, high, low, close, volume }, instrument.index, line, this.fileIndex);
  }
}

/** A bar as its four prints (O,L,H,C rising, else O,H,L,C), its volume split over them, remainder to the first. */
export function pushBarPrints(
  out: TickBatchBuilder,
  bar: { startMs: number; barMs: number; open: number; high: number; low: number; close: number; volume: number },
  index: number,
  line: number,
  file: number,
): void {
  const { startMs, barMs, open, high, low, close, volume } = bar;
  const quarter = Math.floor(volume / 4);
  const remainder = volume - quarter * 4; // NaN for Infinity: then every size is Infinity below
  const size = (i: number): number => (remainder > i ? quarter + 1 : quarter);
  const rising = close >= open;
  out.push(startMs, open, size(0), index, line, file);
  out.push(startMs + Math.floor(barMs / 3), rising ? low : high, size(1), index, line, file);
  out.push(startMs + Math.floor((2 * barMs) / 3), rising ? high : low, size(2), index, line, file);
  out.push(startMs + barMs - 1, close, size(3), index, line, file);
}
