// A market file as a stream of blocks of whole lines, gunzipped on the fly when the name ends in .gz.
// Streaming keeps memory flat whatever the file size: only one chunk and a partial line are held.
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { NEWLINE } from './byte-codes.js';

/** 1 MiB reads: per-chunk costs (a read, joining the line cut at its end) vanish beside the parsing. */
export const DEFAULT_READ_BYTES = 1 << 20;

/** The file's bytes, gunzipped when the name ends in .gz; a read or gzip error rejects the iteration. */
export function openByteStream(path: string, highWaterMarkBytes = DEFAULT_READ_BYTES): Readable {
  const file = createReadStream(path, { highWaterMark: highWaterMarkBytes });
  if (!path.endsWith('.gz')) return file;
  // pipeline destroys both streams on an error or an early stop, so the iterator sees the error.
  return pipeline(file, createGunzip({ chunkSize: Math.max(highWaterMarkBytes, 64) }), () => {});
}

/**
 * Blocks of whole lines, each ending just after a newline, but for the last block when the file does not end
 * in one. A line split across chunks is joined, so parsers never see a chunk boundary.
 */
export async function* readLineBlocks(stream: Readable): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      carry = carry ? Buffer.concat([carry, chunk]) : chunk;
      continue;
    }
    let head = chunk.subarray(0, lastNewline + 1);
    if (carry) {
      // Only the line cut at the chunk's start is joined, not the whole chunk behind it: a copy of every chunk would
      // be a second pass over the file.
      const firstNewline = chunk.indexOf(NEWLINE);
      yield Buffer.concat([carry, chunk.subarray(0, firstNewline + 1)]);
      head = head.subarray(firstNewline + 1);
    }
    if (head.length > 0) yield head;
    carry = lastNewline + 1 < chunk.length ? chunk.subarray(lastNewline + 1) : undefined;
  }
  if (carry) yield carry;
}
