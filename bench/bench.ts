// What a benchmark behind `npm run bench` looks like, and the timing helpers they share.

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
