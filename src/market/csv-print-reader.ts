// The reading loop shared by the ticks and bars formats: lines from the file, the header once, then each row
// handed to the format's row parser, which appends its prints to the batch being filled.
import { CARRIAGE_RETURN, NEWLINE } from './byte-codes.js';
import { ContentCheck } from './content-check.js';
import { CsvHeader, type HeaderLayout } from './csv-header.js';
import { LineTooLongError, lineTooLongInFile, openByteStream, readLineBlocks } from './line-blocks.js';
import { MarketDataError, quoteText } from './market-data-error.js';
import type { MarketFileSpec } from './market-file-spec.js';
import { sortPrints } from './sort-prints.js';
import type { SymbolTable } from './symbol-table.js';
import { DEFAULT_BATCH_ROWS, TickBatchBuilder, type TickBatch } from './tick-batch.js';

export interface CsvReadOptions {
  /** Most prints in a batch. */
  batchRows?: number;
  /** Bytes per file read (tests use tiny reads to put chunk boundaries everywhere). */
  highWaterMarkBytes?: number;
}

/** Turns one data row into prints. Rows come in file order. */
export interface PrintRowParser {
  parseRow(bytes: Buffer, start: number, end: number, line: number, out: TickBatchBuilder): void;
}

export interface PrintFormat {
  readonly layout: HeaderLayout;
  /** Most prints one row makes, so a batch is handed out before a row could overflow it. */
  readonly printsPerRow: number;
  /** Checks the header against the spec; `checkOrder` is false when the file is to be sorted. */
  open(
    spec: MarketFileSpec,
    header: CsvHeader,
    fileIndex: number,
    symbols: SymbolTable,
    checkOrder: boolean,
  ): PrintRowParser;
}

/**
 * Streams a file's prints in batches. With `spec.sort`, the whole file is read into memory first and its
 * prints stably sorted by time (then line), instead of failing on the first time that goes back.
 */
export async function* readCsvPrints(
  spec: MarketFileSpec,
  fileIndex: number,
  symbols: SymbolTable,
  format: PrintFormat,
  options: CsvReadOptions = {},
): AsyncGenerator<TickBatch> {
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  const builder = new TickBatchBuilder(symbols, Math.max(batchRows, format.printsPerRow));
  const lines = new LineParser(spec, fileIndex, symbols, format, builder);
  const sorting = spec.sort === true;
  const unsorted: TickBatch[] = [];
  const check = spec.sha256 === undefined ? undefined : new ContentCheck(spec.path, spec.sha256);
  const blocks = readLineBlocks(openByteStream(spec.path, options.highWaterMarkBytes, check));
  try {
    for (;;) {
      const next = await nextBlock(blocks, spec.path, lines.line);
      if (next.done) break;
      const block = next.value;
      let pos = 0;
      while (pos < block.length) {
        pos = lines.parse(block, pos);
        if (builder.room < format.printsPerRow) {
          if (sorting) unsorted.push(builder.take());
          else yield builder.take();
        }
      }
    }
  } finally {
    // Closes the file when the consumer stops early or a row fails.
    await blocks.return(undefined);
    check?.finish(); // the bytes read were the coordinator's, or the cell fails
  }
  lines.finish();
  const rest = builder.take();
  if (sorting) yield* sortPrints([...unsorted, rest], symbols, batchRows);
  else if (rest.length > 0) yield rest;
}

/** The next block, with a read or gunzip failure reported as a MarketDataError naming the file. */
async function nextBlock(blocks: AsyncGenerator<Buffer>, file: string, line: number): Promise<IteratorResult<Buffer>> {
  try {
    return await blocks.next();
  } catch (error) {
    if (error instanceof LineTooLongError) throw lineTooLongInFile(file, line + 1, error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new MarketDataError(
      file,
      line,
      undefined,
      'a readable file (gzip data when the name ends in .gz)',
      quoteText(reason),
      { cause: error },
    );
  }
}

/** Walks the lines of each block: the first is the header, empty lines are skipped, the rest are rows. */
class LineParser {
  line = 0;
  private rows: PrintRowParser | undefined;

  constructor(
    private readonly spec: MarketFileSpec,
    private readonly fileIndex: number,
    private readonly symbols: SymbolTable,
    private readonly format: PrintFormat,
    private readonly builder: TickBatchBuilder,
  ) {}

  /** Parses lines from `pos` until the block ends or the batch is full; returns where it stopped. */
  parse(block: Buffer, pos: number): number {
    const { builder } = this;
    const reserve = this.format.printsPerRow;
    while (pos < block.length && builder.room >= reserve) {
      const newline = block.indexOf(NEWLINE, pos);
      const lineEnd = newline < 0 ? block.length : newline;
      const end = lineEnd > pos && block[lineEnd - 1] === CARRIAGE_RETURN ? lineEnd - 1 : lineEnd;
      this.line++;
      if (this.rows === undefined) this.rows = this.openHeader(block.toString('utf8', pos, end));
      else if (end > pos) this.rows.parseRow(block, pos, end, this.line, builder);
      pos = lineEnd + 1;
    }
    return pos;
  }

  /** Fails on a file without even a header line. */
  finish(): void {
    if (this.rows === undefined) {
      throw new MarketDataError(
        this.spec.path,
        1,
        undefined,
        `a header row like ${this.format.layout.shape}`,
        'an empty file',
      );
    }
  }

  private openHeader(text: string): PrintRowParser {
    const header = CsvHeader.parse(this.spec.path, text, this.format.layout);
    return this.format.open(this.spec, header, this.fileIndex, this.symbols, this.spec.sort !== true);
  }
}
