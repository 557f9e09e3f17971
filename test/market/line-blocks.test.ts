// Lines longer than MAX_LINE_BYTES are refused with file:line, and a line cut across many reads is joined once, not
// copied again at every read: a file without newlines used to be appended chunk by chunk until memory ran out
// (docs/market-data.md#line-length).
import { Readable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LineTooLongError, MAX_LINE_BYTES, readLineBlocks } from '../../src/market/line-blocks.js';
import { MarketDataError } from '../../src/market/market-data-error.js';
import { marketPrintBatches } from '../../src/market/sources.js';
import { decodeDatabentoFile } from '../../src/market/databento-rows.js';
import { SymbolTable } from '../../src/market/symbol-table.js';
import { collectRows, tempFiles } from './market-test-files.js';

const files = tempFiles();
afterAll(() => files.remove());
afterEach(() => vi.restoreAllMocks());

/** `bytes` cut into chunks of `size`, as a stream yields them. */
function chunked(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

async function blocksOf(stream: Readable): Promise<Buffer[]> {
  const blocks: Buffer[] = [];
  for await (const block of readLineBlocks(stream)) blocks.push(block);
  return blocks;
}

describe('readLineBlocks: the longest line', () => {
  it('is 1 MiB, the size of one read, so a line inside one read is never longer', () => {
    expect(MAX_LINE_BYTES, 'the limit docs/market-data.md#line-length states').toBe(1 << 20);
  });

  it('a stream without newlines is refused once it passes the limit, not read to its end', async () => {
    let served = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        served++;
        yield Buffer.alloc(64 * 1024, 0x41);
      }
    }
    await expect(blocksOf(Readable.from(endless())), 'a line past the limit is an error').rejects.toThrow(
      LineTooLongError,
    );
    // 17 chunks pass the limit; Readable.from reads up to 16 ahead.
    expect(served, 'reading stops soon after the first chunk past the limit').toBeLessThanOrEqual(
      MAX_LINE_BYTES / (64 * 1024) + 1 + 16,
    );
  });

  it('a line of exactly the limit cut into 16,384 reads comes out whole, copied once', async () => {
    const line = Buffer.alloc(MAX_LINE_BYTES, 0x42);
    const text = Buffer.concat([Buffer.from('a,b\n'), line, Buffer.from('\nc,d\n')]);
    const concat = vi.spyOn(Buffer, 'concat');
    const blocks = await blocksOf(chunked(text, 64));
    const copied = concat.mock.results.reduce((sum, r) => sum + (r.value as Buffer).length, 0);
    expect(Buffer.concat(blocks).equals(text), 'the blocks hold the file, byte for byte').toBe(true);
    expect(
      blocks.some((b) => b.equals(Buffer.concat([line, Buffer.from('\n')]))),
      'the long line is one block',
    ).toBe(true);
    // Joining at every read copied the line ~16,384 / 2 times over (8 GB); collected and joined once, about once.
    expect(copied, 'bytes copied to join the cut lines').toBeLessThan(2 * MAX_LINE_BYTES);
  });

  it('a line one byte over the limit, with its newline in a later read, is refused', async () => {
    const text = Buffer.concat([Buffer.alloc(MAX_LINE_BYTES + 1, 0x43), Buffer.from('\n')]);
    await expect(blocksOf(chunked(text, 4096))).rejects.toThrow(LineTooLongError);
  });
});

describe('market readers: a line over the limit', () => {
  const long = 'x'.repeat(MAX_LINE_BYTES + 10);

  it('a ticks file: exit-2 error naming file:line and the limit', async () => {
    const path = files.write('long-line.csv', `ts,price,size\n1704205800000,4770.25,1\n${long}`);
    const reading = collectRows(marketPrintBatches([{ path, format: 'ticks', instrument: 'ESH4' }]));
    const error = await reading.catch((e: unknown) => e);
    expect(error, 'a market file error is exit 2').toBeInstanceOf(MarketDataError);
    expect((error as Error).message).toBe(
      `${path}:3: expected a line of at most 1,048,576 bytes (docs/market-data.md#line-length), got a longer one (a file without newlines?)`,
    );
  });

  it('a gzipped file without a single newline: refused at line 1', async () => {
    const path = files.write('no-newlines.csv.gz', long);
    const error = await collectRows(marketPrintBatches([{ path, format: 'ticks', instrument: 'ESH4' }])).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(
      new RegExp(`^${path.replaceAll('.', '\\.')}:1: expected a line of at most`),
    );
  });

  it('a Databento download: file:line of the long line', async () => {
    const header =
      'ts_recv,ts_event,rtype,publisher_id,instrument_id,action,side,depth,price,size,flags,ts_in_delta,sequence,symbol';
    const row = '1704205800000412113,1704205800000254779,0,1,4916,T,A,0,4770250000000,2,0,18343,51730211,ESH4';
    const path = files.write('long.trades.csv', `${header}\n${row}\n${long}\n`);
    const sink = { trade: () => {}, bar: () => {} };
    const error = await decodeDatabentoFile(path, new SymbolTable(), sink as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarketDataError);
    expect((error as Error).message).toMatch(
      new RegExp(`^${path.replaceAll('.', '\\.')}:3: expected a line of at most`),
    );
  });
});
