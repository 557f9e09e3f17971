// `propsim import market --format databento` (docs/market-data.md#databento): Databento trades → propsim's ticks CSV
// (`ts,instrument,price,size`), ohlcv-1s|1m|1h|1d → bars (`ts,instrument,open,high,low,close,volume`, ts = the bar's
// start), times in Unix ms. Rows are written as they are read while their times go forward; a file whose ts_event
// steps back (rows follow ts_recv) is read again whole and written stably sorted, so prints of one millisecond keep
// their file order.
import { formatFixed } from '../core/money.js';
import { decodeDatabentoFile, type DatabentoBar } from '../market/databento-rows.js';
import { MarketDataError } from '../market/market-data-error.js';
import { SymbolTable, type SymbolEntry } from '../market/symbol-table.js';
import { ByteLines } from './byte-lines.js';

/** Where the CSV goes: written in chunks of bytes (each valid only during the call), or thrown away to start over. */
export interface ByteOut {
  write(bytes: Uint8Array): void;
  discard(): void;
}

export interface MarketImport {
  kind: 'ticks' | 'bars';
  /** Bars only: their length. */
  barMs?: number;
  rows: number;
  spreads: number;
  filteredOut: number;
  /** Rows written per contract, in the order contracts first appear. */
  written: Map<string, number>;
  /** Whether the rows had to be sorted (the file's times stepped back). */
  sorted: boolean;
}

/** Bytes gathered before a write: 1 MiB makes the writes' own cost vanish. */
const CHUNK_BYTES = 1 << 20;
const TICKS_HEADER = 'ts,instrument,price,size\n';
const BARS_HEADER = 'ts,instrument,open,high,low,close,volume\n';

class OutOfOrder extends Error {}

export async function importDatabento(
  files: readonly string[],
  openOut: () => ByteOut,
  options: { symbols?: ReadonlySet<string> } = {},
): Promise<MarketImport> {
  const first = openOut();
  try {
    return await convert(files, options, new StreamingRows(first));
  } catch (error) {
    first.discard();
    if (!(error instanceof OutOfOrder)) throw error;
  }
  const out = openOut();
  const sorting = new SortingRows();
  const result = await convert(files, options, sorting);
  sorting.writeTo(out);
  return { ...result, sorted: true };
}

/** Rows as they are made: written in order, or kept to be sorted. A row is written into `line(timeMs)`, then ended. */
interface RowsOut {
  header(text: string): void;
  line(timeMs: number): ByteLines;
  endLine(): void;
  end(): void;
}

async function convert(
  files: readonly string[],
  options: { symbols?: ReadonlySet<string> },
  rows: RowsOut,
): Promise<MarketImport> {
  const symbols = new SymbolTable();
  const result: MarketImport = {
    kind: 'ticks',
    rows: 0,
    spreads: 0,
    filteredOut: 0,
    written: new Map(),
    sorted: false,
  };
  let kind: 'ticks' | 'bars' | undefined;
  let fileName = '';
  const begin = (which: 'ticks' | 'bars', line: number): void => {
    if (kind === which) return;
    if (kind !== undefined)
      throw new MarketDataError(
        fileName,
        line,
        undefined,
        `${kind === 'ticks' ? 'trades' : 'ohlcv'} rows like the files before`,
        `${which === 'ticks' ? 'trades' : 'ohlcv'} rows`,
      );
    kind = which;
    result.kind = which;
    rows.header(which === 'ticks' ? TICKS_HEADER : BARS_HEADER);
  };
  // Per instrument index, not a Map per row: this runs for every row of the import.
  const written: number[] = [];
  const count = (instrument: SymbolEntry): void => {
    written[instrument.index] = (written[instrument.index] ?? 0) + 1;
  };
  const texts = new ContractTexts();
  for (const file of files) {
    fileName = file;
    const counts = await decodeDatabentoFile(
      file,
      symbols,
      {
        trade: (timeMs, instrument, priceTicks, size, line) => {
          begin('ticks', line);
          count(instrument);
          const out = rows.line(timeMs);
          out.integer(timeMs);
          out.comma();
          out.text(texts.symbol(instrument));
          out.comma();
          out.text(texts.price(instrument, priceTicks));
          out.comma();
          out.integer(size);
          out.newline();
          rows.endLine();
        },
        bar: (bar, instrument, line) => {
          begin('bars', line);
          if (result.barMs !== undefined && result.barMs !== bar.barMs)
            throw new MarketDataError(
              file,
              line,
              undefined,
              `bars of ${result.barMs} ms like the rows before`,
              `a bar of ${bar.barMs} ms`,
            );
          result.barMs = bar.barMs;
          count(instrument);
          writeBar(rows.line(bar.startMs), bar, instrument, texts);
          rows.endLine();
        },
      },
      options.symbols === undefined ? {} : { keep: (symbol) => options.symbols!.has(symbol) },
    );
    result.rows += counts.rows;
    result.spreads += counts.spreads;
    result.filteredOut += counts.filteredOut;
  }
  written.forEach((n, index) => n > 0 && result.written.set(symbols.symbol(index), n));
  if (kind === undefined) rows.header(TICKS_HEADER);
  rows.end();
  return result;
}

function writeBar(out: ByteLines, bar: DatabentoBar, instrument: SymbolEntry, texts: ContractTexts): void {
  out.integer(bar.startMs);
  out.comma();
  out.text(texts.symbol(instrument));
  for (const ticks of [bar.open, bar.high, bar.low, bar.close]) {
    out.comma();
    out.text(texts.price(instrument, ticks));
  }
  out.comma();
  if (bar.volume !== Infinity) out.integer(bar.volume);
  out.newline();
}

/** Most price texts remembered per contract: trades revisit a few hundred prices a day. */
const MAX_PRICE_TEXTS = 4096;

/**
 * A contract's symbol and prices as the CSV writes them, in bytes, remembered: 19081 ticks of ES → "4770.25"
 * (formatting each price cost a third of the import).
 */
class ContractTexts {
  private readonly symbols: Buffer[] = [];
  private readonly prices: Map<number, Buffer>[] = [];

  symbol(instrument: SymbolEntry): Buffer {
    return (this.symbols[instrument.index] ??= Buffer.from(instrument.symbol, 'latin1'));
  }

  price(instrument: SymbolEntry, ticks: number): Buffer {
    const texts = (this.prices[instrument.index] ??= new Map());
    let text = texts.get(ticks);
    if (text === undefined) {
      if (texts.size === MAX_PRICE_TEXTS) texts.clear();
      text = Buffer.from(formatFixed(ticks * instrument.grid.tickUnits, instrument.grid.decimals), 'latin1');
      texts.set(ticks, text);
    }
    return text;
  }
}

/** Writes rows in chunks as they come; gives up (OutOfOrder) on the first time that steps back. */
class StreamingRows implements RowsOut {
  private readonly chunk = new ByteLines(CHUNK_BYTES * 2);
  private lastMs = -Infinity;

  constructor(private readonly out: ByteOut) {}

  header(text: string): void {
    this.out.write(Buffer.from(text, 'latin1'));
  }

  line(timeMs: number): ByteLines {
    if (timeMs < this.lastMs) throw new OutOfOrder();
    this.lastMs = timeMs;
    this.chunk.room();
    return this.chunk;
  }

  endLine(): void {
    if (this.chunk.length >= CHUNK_BYTES) this.flush();
  }

  end(): void {
    this.flush();
  }

  private flush(): void {
    this.out.write(this.chunk.written());
    this.chunk.clear();
  }
}

/** Keeps every row, then writes them stably sorted by time (ties in the order they were read). */
class SortingRows implements RowsOut {
  private readonly times: number[] = [];
  /** Where each row starts in `rows`. */
  private readonly starts: number[] = [];
  private readonly rows = new ByteLines(CHUNK_BYTES);
  private headerText = '';

  header(text: string): void {
    this.headerText = text;
  }

  line(timeMs: number): ByteLines {
    this.times.push(timeMs);
    this.starts.push(this.rows.length);
    this.rows.room();
    return this.rows;
  }

  endLine(): void {}

  end(): void {}

  writeTo(out: ByteOut): void {
    const { times, starts, rows } = this;
    const order = Array.from(times, (_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
    out.write(Buffer.from(this.headerText, 'latin1'));
    const chunk = new ByteLines(CHUNK_BYTES * 2);
    for (const k of order) {
      chunk.room();
      chunk.copy(rows.bytes, starts[k]!, starts[k + 1] ?? rows.length);
      if (chunk.length >= CHUNK_BYTES) {
        out.write(chunk.written());
        chunk.clear();
      }
    }
    out.write(chunk.written());
  }
}
