// Databento downloads (docs/market-data.md#databento): CSV or JSON lines of the `trades` schema (one print a row,
// time = ts_event) and of `ohlcv-1s|1m|1h|1d` (one bar a row, time = the bar's start). Times are integer ns or ISO
// with nanoseconds (pretty_ts), cut to the millisecond; prices are integers in units of 1e-9 or decimals
// (pretty_px). The `symbol` column names the contract; spread rows (`ESH4-ESM4`) and symbols left out by a filter
// are counted, not read. Shared by the `databento` market reader and `propsim import market`.
import { CARRIAGE_RETURN, DASH, NEWLINE, OPEN_BRACE, POINT } from './byte-codes.js';
import { CsvHeader, type HeaderLayout } from './csv-header.js';
import { CsvRow } from './csv-row.js';
import { parseDigits, parseScaledDecimal } from './byte-numbers.js';
import { parseIsoNanosMs } from './byte-times.js';
import { ContentCheck } from './content-check.js';
import { LineTooLongError, lineTooLongInFile, openByteStream, readLineBlocks } from './line-blocks.js';
import { MarketDataError, quoteText } from './market-data-error.js';
import type { SymbolEntry, SymbolTable } from './symbol-table.js';
import { UnknownInstrumentError } from '../core/instruments.js';

/** What a decoded row becomes: a trade print, or a bar. Prices in integer ticks. */
export interface DatabentoSink {
  trade(timeMs: number, instrument: SymbolEntry, priceTicks: number, size: number, line: number): void;
  bar(bar: DatabentoBar, instrument: SymbolEntry, line: number): void;
}

export interface DatabentoBar {
  startMs: number;
  barMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface DatabentoCounts {
  /** Rows read (a header is not a row). */
  rows: number;
  /** Rows of calendar spreads, not read. */
  spreads: number;
  /** Rows of symbols the filter leaves out. */
  filteredOut: number;
}

export interface DatabentoOptions {
  /** Which contracts to read (as Databento spells them: ESH4); the others are counted as left out. */
  keep?: (symbol: string) => boolean;
  /** The sha256 the file's bytes must have (MarketFileSpec.sha256). */
  sha256?: string;
}

const LAYOUT: HeaderLayout = {
  shape: 'ts_event,…,symbol with price,size (trades) or open,high,low,close,volume (ohlcv)',
  required: ['ts_event', 'symbol'],
  optional: [
    ...['ts_recv', 'rtype', 'publisher_id', 'instrument_id', 'action', 'side', 'depth', 'price', 'size', 'flags'],
    ...['ts_in_delta', 'sequence', 'open', 'high', 'low', 'close', 'volume'],
  ],
};

/** OHLCV record types (rtype) and their bar lengths: 1 s, 1 min, 1 h, 1 day. */
const BAR_MS_BY_RTYPE: Record<number, number> = { 32: 1_000, 33: 60_000, 34: 3_600_000, 35: 86_400_000 };
const BAR_MS_BY_NAME: Record<string, number> = { '1s': 1_000, '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 };
/** 1e-9 units per 10^-decimals unit, by decimals: 10^(9 - decimals). */
const NANO_UNITS = Array.from({ length: 10 }, (_, decimals) => 10 ** (9 - decimals));
/** Symbols matched on bytes before the map of texts is asked. */
const RECENT_SYMBOLS = 8;

/** What a symbol is to the decoder: a contract read, a spread, or one the filter leaves out. */
type SymbolKind = SymbolEntry | 'spread' | 'filtered';

/** Reads one Databento file into `sink`, streaming; returns its counts. */
export async function decodeDatabentoFile(
  file: string,
  symbols: SymbolTable,
  sink: DatabentoSink,
  options: DatabentoOptions = {},
): Promise<DatabentoCounts> {
  const decoder = new DatabentoDecoder(file, symbols, sink, options);
  let line = 0;
  const check = options.sha256 === undefined ? undefined : new ContentCheck(file, options.sha256);
  try {
    for await (const block of readLineBlocks(openByteStream(file, undefined, check))) {
      let pos = 0;
      while (pos < block.length) {
        const newline = block.indexOf(NEWLINE, pos);
        const lineEnd = newline < 0 ? block.length : newline;
        const end = lineEnd > pos && block[lineEnd - 1] === CARRIAGE_RETURN ? lineEnd - 1 : lineEnd;
        line++;
        if (end > pos) decoder.line(block, pos, end, line);
        pos = lineEnd + 1;
      }
    }
  } catch (error) {
    if (error instanceof LineTooLongError) throw lineTooLongInFile(file, line + 1, error);
    throw error;
  } finally {
    check?.finish(); // the bytes read were the coordinator's, or the read fails
  }
  return decoder.finish();
}

class DatabentoDecoder {
  private readonly counts: DatabentoCounts = { rows: 0, spreads: 0, filteredOut: 0 };
  private row: CsvRow | undefined;
  /** JSON lines: the columns each record is laid out in, from the first record. */
  private jsonColumns: string[] | undefined;
  private columns!: Record<
    'ts' | 'symbol' | 'rtype' | 'price' | 'size' | 'open' | 'high' | 'low' | 'close' | 'volume',
    number
  >;
  private isBars = false;
  private readonly cache = new Map<string, SymbolKind>();
  /** The first symbols met, as bytes: a file names a few contracts, and a row is matched to one without a string. */
  private readonly recent: Array<{ bytes: Buffer; known: SymbolKind }> = [];

  constructor(
    private readonly file: string,
    private readonly symbols: SymbolTable,
    private readonly sink: DatabentoSink,
    private readonly options: DatabentoOptions,
  ) {}

  line(bytes: Buffer, start: number, end: number, line: number): void {
    if (this.row === undefined) {
      if (bytes[start] === OPEN_BRACE) this.openJson(bytes.toString('utf8', start, end));
      else return this.openHeader(bytes.toString('utf8', start, end));
    }
    if (this.jsonColumns !== undefined) {
      const csv = Buffer.from(this.jsonAsCsv(bytes.toString('utf8', start, end), line));
      this.decodeRow(csv, 0, csv.length, line);
    } else this.decodeRow(bytes, start, end, line);
  }

  finish(): DatabentoCounts {
    if (this.row === undefined)
      throw new MarketDataError(this.file, 1, undefined, 'a Databento header row', 'an empty file');
    return this.counts;
  }

  private openHeader(text: string): void {
    const header = CsvHeader.parse(this.file, text, LAYOUT);
    const at = (name: string): number => header.indexOf(name);
    this.columns = {
      ts: at('ts_event'),
      symbol: at('symbol'),
      rtype: at('rtype'),
      price: at('price'),
      size: at('size'),
      open: at('open'),
      high: at('high'),
      low: at('low'),
      close: at('close'),
      volume: at('volume'),
    };
    const { price, open, high, low, close } = this.columns;
    this.isBars = price < 0;
    if (this.isBars ? [open, high, low, close].some((c) => c < 0) : this.columns.size < 0)
      header.fail(
        this.isBars ? 'open' : 'size',
        'the columns of the trades schema (price, size) or of ohlcv (open, high, low, close, volume)',
      );
    this.row = new CsvRow(header);
  }

  /** The first JSON record: its fields (those of `hd` lifted up) make the columns of a header. */
  private openJson(text: string): void {
    const record = this.parseJson(text, 1);
    this.jsonColumns = Object.keys(record).filter(
      (name) => LAYOUT.optional.includes(name) || LAYOUT.required.includes(name),
    );
    this.openHeader(this.jsonColumns.join(','));
  }

  private jsonAsCsv(text: string, line: number): string {
    const record = this.parseJson(text, line);
    return this.jsonColumns!.map((name) => {
      const value = record[name];
      return value === undefined || value === null ? '' : String(value).replace(/[,"]/g, ' ');
    }).join(',');
  }

  private parseJson(text: string, line: number): Record<string, unknown> {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      throw new MarketDataError(this.file, line, undefined, 'a JSON object on each line', quoteText(text));
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record))
      throw new MarketDataError(this.file, line, undefined, 'a JSON object on each line', quoteText(text));
    const { hd, ...rest } = record as Record<string, unknown>;
    return { ...(typeof hd === 'object' && hd !== null ? (hd as Record<string, unknown>) : {}), ...rest };
  }

  private decodeRow(bytes: Buffer, start: number, end: number, line: number): void {
    const row = this.row!;
    const { columns, counts } = this;
    row.split(bytes, start, end, line);
    counts.rows++;
    const instrument = this.instrument(row);
    if (instrument === undefined) return;
    const timeMs = this.timeMs(row, columns.ts);
    if (!this.isBars) {
      this.sink.trade(
        timeMs,
        instrument,
        this.priceTicks(row, columns.price, instrument),
        row.wholeNumber(columns.size, 1),
        line,
      );
      return;
    }
    const bar: DatabentoBar = {
      startMs: timeMs,
      barMs: this.barMs(row),
      open: this.priceTicks(row, columns.open, instrument),
      high: this.priceTicks(row, columns.high, instrument),
      low: this.priceTicks(row, columns.low, instrument),
      close: this.priceTicks(row, columns.close, instrument),
      volume: columns.volume < 0 || row.isEmpty(columns.volume) ? Infinity : row.wholeNumber(columns.volume, 0),
    };
    if (bar.high < bar.open || bar.high < bar.close)
      row.fail(columns.high, "a high at or above the bar's open and close");
    if (bar.low > bar.open || bar.low > bar.close) row.fail(columns.low, "a low at or below the bar's open and close");
    this.sink.bar(bar, instrument, line);
  }

  /** The row's contract, or undefined for a spread or a symbol the filter leaves out (each counted). */
  private instrument(row: CsvRow): SymbolEntry | undefined {
    const column = this.columns.symbol;
    const start = row.fieldStart(column);
    const end = row.fieldEnd(column);
    let known: SymbolKind | undefined;
    // Compared on bytes, no string made: making one per row cost a tenth of the decode.
    for (const seen of this.recent)
      if (sameBytes(seen.bytes, row.bytes, start, end)) {
        known = seen.known;
        break;
      }
    if (known === undefined) {
      const text = row.text(column);
      known = this.cache.get(text);
      if (known === undefined) this.cache.set(text, (known = this.classify(row, text)));
      if (this.recent.length < RECENT_SYMBOLS) this.recent.push({ bytes: Buffer.from(text), known });
    }
    if (known === 'spread') this.counts.spreads++;
    else if (known === 'filtered') this.counts.filteredOut++;
    else return known;
    return undefined;
  }

  private classify(row: CsvRow, text: string): SymbolKind {
    if (text.includes('-')) return 'spread';
    if (this.options.keep && !this.options.keep(text)) return 'filtered';
    try {
      return this.symbols.register(text);
    } catch (error) {
      if (!(error instanceof UnknownInstrumentError)) throw error;
      return row.fail(
        this.columns.symbol,
        'a known GLOBEX contract like ESH4',
        `${quoteText(text)} (${error.message})`,
      );
    }
  }

  /** Integer ns (`1704205800123456789`) or ISO with up to nine fraction digits and Z, cut to the millisecond. */
  private timeMs(row: CsvRow, column: number): number {
    const { bytes } = row;
    const start = row.fieldStart(column);
    const end = row.fieldEnd(column);
    // 19 digits of ns exceed a safe integer: the first (length - 6) digits are the ms.
    const ms = end - start > 6 ? parseDigits(bytes, start, end - 6) : NaN;
    if (!Number.isNaN(ms) && !Number.isNaN(parseDigits(bytes, end - 6, end))) return ms;
    const iso = parseIsoNanosMs(bytes, start, end);
    return Number.isNaN(iso)
      ? row.fail(column, 'integer nanoseconds or an ISO time like 2024-01-02T14:30:00.123456789Z')
      : iso;
  }

  /** A price as integer ticks: a decimal (pretty_px) or an integer of 1e-9 units. */
  private priceTicks(row: CsvRow, column: number, instrument: SymbolEntry): number {
    const { bytes } = row;
    const start = row.fieldStart(column);
    const end = row.fieldEnd(column);
    const { grid } = instrument;
    const negative = bytes[start] === DASH;
    const units = parseDigits(bytes, negative ? start + 1 : start, end);
    let ticks: number;
    if (Number.isNaN(units) && hasByte(bytes, POINT, start, end)) {
      ticks = grid.ticksFromScaled(parseScaledDecimal(bytes, start, end, grid.decimals));
    } else {
      // 1e-9 units per tick, exact (10^(9 - decimals) × tick units); a quotient of safe integers is whole only
      // when the division is exact, so one division checks the grid and gives the ticks.
      const perTick = NANO_UNITS[grid.decimals]! * grid.tickUnits;
      const whole = units / perTick;
      ticks = Number.isInteger(whole) ? (negative ? -whole : whole) : NaN;
    }
    return Number.isNaN(ticks) ? row.fail(column, `${grid.expected} (a decimal, or an integer of 1e-9 units)`) : ticks;
  }

  /** The bar length, from the row's rtype, else from the file's name (`….ohlcv-1m.csv`). */
  private barMs(row: CsvRow): number {
    const { rtype } = this.columns;
    const fromType =
      rtype < 0 ? undefined : BAR_MS_BY_RTYPE[parseDigits(row.bytes, row.fieldStart(rtype), row.fieldEnd(rtype))];
    const fromName = BAR_MS_BY_NAME[/ohlcv-(1s|1m|1h|1d)/.exec(this.file)?.[1] ?? ''];
    const barMs = fromType ?? fromName;
    if (barMs === undefined)
      row.fail(
        rtype < 0 ? this.columns.ts : rtype,
        'an ohlcv-1s|1m|1h|1d bar: rtype 32 to 35, or the schema in the file name',
      );
    return barMs!;
  }
}

function sameBytes(expected: Buffer, bytes: Buffer, start: number, end: number): boolean {
  if (end - start !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[start + i] !== expected[i]) return false;
  return true;
}

/** Whether bytes [start, end) hold `byte` (Buffer.indexOf would search on to the end of the block). */
function hasByte(bytes: Buffer, byte: number, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] === byte) return true;
  return false;
}
