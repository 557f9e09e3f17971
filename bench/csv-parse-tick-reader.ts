// The ticks format read with csv-parse, for the reader benchmark only: it shows what the hand parser in
// src/market buys. It yields the same batches for a well-formed file, but does not check the header,
// the time order or the size column as carefully, and its errors do not name the column. Line numbers are
// counted, not asked of csv-parse (its `info` option halves its speed), so they assume no blank lines.
import { pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import { parseTimeMs } from '../src/core/time.js';
import { openByteStream } from '../src/market/line-blocks.js';
import type { PriceGrid } from '../src/market/price-grid.js';
import type { SymbolTable } from '../src/market/symbol-table.js';
import { DEFAULT_BATCH_ROWS, TickBatchBuilder, type TickBatch } from '../src/market/tick-batch.js';

export async function* readTickCsvWithCsvParse(
  path: string,
  fileIndex: number,
  symbols: SymbolTable,
): AsyncGenerator<TickBatch> {
  const records = pipeline(openByteStream(path), parse({ columns: true }), () => {});
  const out = new TickBatchBuilder(symbols, DEFAULT_BATCH_ROWS);
  let line = 1;
  for await (const record of records as AsyncIterable<Record<string, string | undefined>>) {
    line++;
    const where = `${path}:${line}`;
    const timeMs = parseTimeMs(record.ts, `${where} ts`);
    const instrument = symbols.register(record.instrument ?? '');
    const priceTicks = ticksFromText(record.price ?? '', instrument.grid);
    if (Number.isNaN(priceTicks))
      throw new Error(`${where}: price ${record.price} is not on the ${instrument.grid.tickSize} grid`);
    const size = record.size ? Number(record.size) : Infinity;
    if (!(Number.isSafeInteger(size) && size > 0) && size !== Infinity)
      throw new Error(`${where}: bad size ${record.size}`);
    out.push(timeMs, priceTicks, size, instrument.index, line, fileIndex);
    if (out.room === 0) yield out.take();
  }
  if (out.length > 0) yield out.take();
}

const DECIMAL = /^(-?\d+)(?:\.(\d+))?$/;

/** Integer ticks of a decimal string, exactly: the digits become one scaled integer before dividing. */
function ticksFromText(text: string, grid: PriceGrid): number {
  const match = DECIMAL.exec(text);
  if (!match) return NaN;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > grid.decimals) return NaN;
  const scaled = Number(`${match[1]}${fraction.padEnd(grid.decimals, '0')}`);
  return Number.isSafeInteger(scaled) ? grid.ticksFromScaled(scaled) : NaN;
}
