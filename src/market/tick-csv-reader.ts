// `ticks` market files (docs/market-data.md#ticks): ts,instrument,price[,size], one trade print a row.
import type { CsvHeader } from './csv-header.js';
import { readCsvPrints, type CsvReadOptions, type PrintFormat, type PrintRowParser } from './csv-print-reader.js';
import { CsvRow } from './csv-row.js';
import { InstrumentColumn } from './instrument-column.js';
import type { MarketFileSpec } from './market-file-spec.js';
import type { SymbolTable } from './symbol-table.js';
import type { TickBatch, TickBatchBuilder } from './tick-batch.js';

/** Streams a ticks file as batches of prints; `fileIndex` is the file's place in its merged source. */
export function readTickCsv(
  spec: MarketFileSpec,
  fileIndex: number,
  symbols: SymbolTable,
  options?: CsvReadOptions,
): AsyncGenerator<TickBatch> {
  return readCsvPrints(spec, fileIndex, symbols, TICKS_FORMAT, options);
}

const TICKS_FORMAT: PrintFormat = {
  layout: {
    shape: 'ts,instrument,price[,size]',
    required: ['ts', 'price'],
    optional: ['instrument', 'size'],
    otherFormat: {
      columns: ['open', 'high', 'low', 'close'],
      advice: "this is a bars file: list it with format: bars and its instrument, as in a scenario's market files",
    },
  },
  printsPerRow: 1,
  open: (spec, header, fileIndex, symbols, checkOrder) =>
    new TickRowParser(spec, header, fileIndex, symbols, checkOrder),
};

class TickRowParser implements PrintRowParser {
  private readonly row: CsvRow;
  private readonly instruments: InstrumentColumn;
  private readonly tsColumn: number;
  private readonly priceColumn: number;
  private readonly sizeColumn: number;
  private previousMs = -Infinity;

  constructor(
    spec: MarketFileSpec,
    header: CsvHeader,
    private readonly fileIndex: number,
    symbols: SymbolTable,
    private readonly checkOrder: boolean,
  ) {
    this.row = new CsvRow(header);
    this.instruments = InstrumentColumn.open(spec, header, symbols);
    this.tsColumn = header.indexOf('ts');
    this.priceColumn = header.indexOf('price');
    this.sizeColumn = header.indexOf('size');
  }

  parseRow(bytes: Buffer, start: number, end: number, line: number, out: TickBatchBuilder): void {
    const row = this.row;
    row.split(bytes, start, end, line);
    const timeMs = row.timeMs(this.tsColumn);
    if (this.checkOrder) {
      row.checkNotBefore(this.tsColumn, timeMs, this.previousMs, "the previous row's time");
      this.previousMs = timeMs;
    }
    const instrument = this.instruments.resolve(row);
    const priceTicks = row.priceTicks(this.priceColumn, instrument.grid);
    // No size column, or an empty cell: the print fills any quantity.
    const size = this.sizeColumn < 0 || row.isEmpty(this.sizeColumn) ? Infinity : row.wholeNumber(this.sizeColumn, 1);
    out.push(timeMs, priceTicks, size, instrument.index, line, this.fileIndex);
  }
}
