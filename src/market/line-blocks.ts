// A market file as a stream of blocks of whole lines, gunzipped on the fly when the name ends in .gz.
// Streaming keeps memory flat whatever the file size: only one chunk and a partial line are held, and a line longer
// than MAX_LINE_BYTES is refused (docs/market-data.md#line-length) instead of growing until memory runs out.
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { NEWLINE } from './byte-codes.js';
import type { ContentCheck } from './content-check.js';
import { MarketDataError } from './market-data-error.js';

/** 1 MiB reads: per-chunk costs (a read, joining the line cut at its end) vanish beside the parsing. */
export const DEFAULT_READ_BYTES = 1 << 20;

/**
 * The longest line (without its newline) a reader takes: 1 MiB, far above any real row (a Databento JSON line is a
 * few hundred bytes) and the size of one read, so a line that fits in one read is never too long.
 */
export const MAX_LINE_BYTES = 1 << 20;

/** A line longer than the reader's limit; the caller knows the file and the line and names them. */
export class LineTooLongError extends Error {
  override name = 'LineTooLongError';
  constructor(readonly maxLineBytes: number) {
    super(`a line longer than ${maxLineBytes.toLocaleString('en-US')} bytes`);
  }
}

/** The error a reader reports for LineTooLongError: `line` is the long line's number (the lines before it, plus 1). */
export function lineTooLongInFile(file: string, line: number, error: LineTooLongError): MarketDataError {
  return new MarketDataError(
    file,
    line,
    undefined,
    `a line of at most ${error.maxLineBytes.toLocaleString('en-US')} bytes (docs/market-data.md#line-length)`,
    'a longer one (a file without newlines?)',
    { cause: error },
  );
}

/**
 * The file's bytes, gunzipped when the name ends in .gz; a read or gzip error rejects the iteration. With `check`,
 * the file's bytes (before gunzip) pass through its hash; the caller calls `check.finish()` once it stops reading.
 */
export function openByteStream(path: string, highWaterMarkBytes = DEFAULT_READ_BYTES, check?: ContentCheck): Readable {
  const file = createReadStream(path, { highWaterMark: highWaterMarkBytes });
  const gunzip = () => createGunzip({ chunkSize: Math.max(highWaterMarkBytes, 64) });
  // pipeline destroys every stream on an error or an early stop, so the iterator sees the error.
  if (!check) return path.endsWith('.gz') ? pipeline(file, gunzip(), () => {}) : file;
  file.once('error', (error) => check.abandon(error));
  return path.endsWith('.gz') ? pipeline(file, check.tap(), gunzip(), () => {}) : pipeline(file, check.tap(), () => {});
}

/**
 * Blocks of whole lines, each ending just after a newline, but for the last block when the file does not end
 * in one. A line split across chunks is joined, so parsers never see a chunk boundary: its pieces are kept in a
 * list and copied once when its newline comes. Throws LineTooLongError as soon as the line being joined passes
 * `maxLineBytes` (a line inside one chunk is at most the chunk's length).
 */
export async function* readLineBlocks(stream: Readable, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<Buffer> {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      carryBytes += chunk.length;
      if (carryBytes > maxLineBytes) throw new LineTooLongError(maxLineBytes);
      carry.push(chunk);
      continue;
    }
    let head = chunk.subarray(0, lastNewline + 1);
    if (carryBytes > 0) {
      // Only the line cut at the chunk's start is joined, not the whole chunk behind it: a copy of every chunk would
      // be a second pass over the file.
      const firstNewline = chunk.indexOf(NEWLINE);
      if (carryBytes + firstNewline > maxLineBytes) throw new LineTooLongError(maxLineBytes);
      carry.push(chunk.subarray(0, firstNewline + 1));
      yield Buffer.concat(carry, carryBytes + firstNewline + 1);
      head = head.subarray(firstNewline + 1);
    }
    if (head.length > 0) yield head;
    carry = lastNewline + 1 < chunk.length ? [chunk.subarray(lastNewline + 1)] : [];
    carryBytes = carry[0]?.length ?? 0;
  }
  if (carryBytes > 0) yield carry.length === 1 ? carry[0]! : Buffer.concat(carry, carryBytes);
}
