// What a benchmark behind `npm run bench` looks like, and the timing helpers they share.
import { createWriteStream, existsSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Bench {
  readonly name: string;
  readonly description: string;
  /** Runs the benchmark, logging human lines through `log`, and returns its figures (JSON-ready). */
  run(log: (line: string) => void): Promise<Record<string, unknown>>;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall time of an async task in ms. */
export async function timeMs(task: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await task();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * A generated benchmark file under the OS temp dir, written once (header, then `line(i)` for each row, under a
 * temporary name renamed when whole) and reused by later runs.
 */
export async function ensureGeneratedFile(
  name: string,
  header: string,
  rows: number,
  line: (row: number) => string,
  log: (line: string) => void,
): Promise<string> {
  const path = join(tmpdir(), name);
  if (existsSync(path)) return path;
  log(`  writing ${path} (once)`);
  const partial = `${path}.${process.pid}.partial`;
  const out = createWriteStream(partial);
  const lines: string[] = [header];
  for (let row = 0; row < rows; row++) {
    lines.push(line(row));
    if (lines.length === 100_000 || row === rows - 1) {
      if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
      lines.length = 0;
    }
  }
  out.end();
  await once(out, 'finish');
  renameSync(partial, path);
  return path;
}
