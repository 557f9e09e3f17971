// Helpers for the market reader tests: small CSV files in a temp dir, and batches flattened to rows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { TickBatch } from '../../src/market/tick-batch.js';

export interface PrintRow {
  timeMs: number;
  priceTicks: number;
  size: number;
  symbol: string;
  line: number;
  fileIndex: number;
}

/** A temp dir for one test file's fixtures; `write` puts a file in it, gzipped by default when the name ends in .gz. */
export function tempFiles(): { write(name: string, text: string, gzip?: boolean): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'propsim-market-'));
  return {
    write(name, text, gzip = name.endsWith('.gz')) {
      const path = join(dir, name);
      writeFileSync(path, gzip ? gzipSync(text) : text);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function collectRows(batches: AsyncIterable<TickBatch>): Promise<PrintRow[]> {
  const rows: PrintRow[] = [];
  for await (const batch of batches) rows.push(...batchRows(batch));
  return rows;
}

export function batchRows(batch: TickBatch): PrintRow[] {
  return Array.from({ length: batch.length }, (_, i) => ({
    timeMs: batch.timeMs[i]!,
    priceTicks: batch.priceTicks[i]!,
    size: batch.size[i]!,
    symbol: batch.symbols.symbol(batch.instrumentIndex[i]!),
    line: batch.line[i]!,
    fileIndex: batch.fileIndex[i]!,
  }));
}
