// `propsim import market --format databento` (docs/market-data.md#databento): Databento trades → propsim's ticks CSV
// (`ts,instrument,price,size`), ohlcv-1s|1m|1h|1d → bars (`ts,instrument,open,high,low,close,volume`, ts = the bar's
// start), times in Unix ms. Rows are written as they are read while their times go forward; a file whose ts_event
// steps back (rows follow ts_recv) is read again whole and written stably sorted, so prints of one millisecond keep
// their file order.
import { formatFixed } from '../core/money.js';
import { decodeDatabentoFile, type DatabentoBar } from '../market/databento-rows.js';
import { MarketDataError } from '../market/market-data-error.js';
import { SymbolTable, type SymbolEntry } from '../market/symbol-table.js';

/** Where the CSV goes: written in chunks, or thrown away to start over. */
export interface TextOut {
  write(text: string): void;
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

const CHUNK_LINES = 8192;
const TICKS_HEADER = 'ts,instrument,price,size\n';
const BARS_HEADER = 'ts,instrument,open,high,low,close,volume\n';

class OutOfOrder extends Error {}

export async function importDatabento(
  files: readonly string[],
  openOut: () => TextOut,
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

/** Rows as they are made: written in order, or kept to be sorted. */
interface RowsOut {
  add(timeMs: number, line: string): void;
  header(text: string): void;
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
  // Per instrument index (a Map per row cost ~10 % of the import).
  const written: number[] = [];
  const count = (instrument: SymbolEntry): void => {
    written[instrument.index] = (written[instrument.index] ?? 0) + 1;
  };
  const priceText = new PriceTexts();
  for (const file of files) {
    fileName = file;
    const counts = await decodeDatabentoFile(
      file,
      symbols,
      {
        trade: (timeMs, instrument, priceTicks, size, line) => {
          begin('ticks', line);
          count(instrument);
          rows.add(timeMs, `${timeMs},${instrument.symbol},${priceText.of(instrument, priceTicks)},${size}\n`);
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
          rows.add(bar.startMs, barLine(bar, instrument, priceText));
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

function barLine(bar: DatabentoBar, instrument: SymbolEntry, priceText: PriceTexts): string {
  const prices = [bar.open, bar.high, bar.low, bar.close].map((ticks) => priceText.of(instrument, ticks)).join(',');
  const volume = bar.volume === Infinity ? '' : String(bar.volume);
  return `${bar.startMs},${instrument.symbol},${prices},${volume}\n`;
}

/** Most price texts remembered per contract: trades revisit a few hundred prices a day. */
const MAX_PRICE_TEXTS = 4096;

/** Integer ticks as the contract writes a price (19081 ticks of ES → "4770.25"), remembered: formatting cost a third. */
class PriceTexts {
  private readonly byInstrument: Map<number, string>[] = [];

  of(instrument: SymbolEntry, ticks: number): string {
    let texts = this.byInstrument[instrument.index];
    if (texts === undefined) this.byInstrument[instrument.index] = texts = new Map();
    let text = texts.get(ticks);
    if (text === undefined) {
      if (texts.size === MAX_PRICE_TEXTS) texts.clear();
      text = formatFixed(ticks * instrument.grid.tickUnits, instrument.grid.decimals);
      texts.set(ticks, text);
    }
    return text;
  }
}

/** Writes rows in chunks as they come; gives up (OutOfOrder) on the first time that steps back. */
class StreamingRows implements RowsOut {
  /** Lines joined by concatenation (V8 keeps a rope: cheaper than an array joined). */
  private chunk = '';
  private lines = 0;
  private lastMs = -Infinity;

  constructor(private readonly out: TextOut) {}

  header(text: string): void {
    this.out.write(text);
  }

  add(timeMs: number, line: string): void {
    if (timeMs < this.lastMs) throw new OutOfOrder();
    this.lastMs = timeMs;
    this.chunk += line;
    if (++this.lines === CHUNK_LINES) this.flush();
  }

  end(): void {
    this.flush();
  }

  private flush(): void {
    this.out.write(this.chunk);
    this.chunk = '';
    this.lines = 0;
  }
}

/** Keeps every row, then writes them stably sorted by time (ties in the order they were read). */
class SortingRows implements RowsOut {
  private readonly times: number[] = [];
  private readonly lines: string[] = [];
  private headerText = '';

  header(text: string): void {
    this.headerText = text;
  }

  add(timeMs: number, line: string): void {
    this.times.push(timeMs);
    this.lines.push(line);
  }

  end(): void {}

  writeTo(out: TextOut): void {
    const order = Array.from(this.times, (_, i) => i).sort((a, b) => this.times[a]! - this.times[b]! || a - b);
    out.write(this.headerText);
    for (let i = 0; i < order.length; i += CHUNK_LINES)
      out.write(
        order
          .slice(i, i + CHUNK_LINES)
          .map((k) => this.lines[k])
          .join(''),
      );
  }
}
