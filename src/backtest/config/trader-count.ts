// `propsim backtest --traders N` (docs/backtesting.md#how-many-traders): the number of synthetic traders set on the
// command line, so that a question can be run again with the count the report's guidance asks for without editing
// the config. The config's blocks keep their shares of the total (largest remainders, earlier blocks first on a tie),
// and each keeps at least one trader. A trader's seed is its place in the roster, as for any config: a run with
// another count draws other traders, not a superset of the first run's.
import { MAX_BLOCK_TRADERS } from './backtest-config-schema.js';
import type { BacktestConfig } from './backtest-config-types.js';
import { BacktestInputError } from '../backtest-input-error.js';

export function withSyntheticTraders(config: BacktestConfig, total: number): BacktestConfig {
  const blocks = config.synthetic;
  if (blocks.length === 0)
    throw new BacktestInputError(
      `--traders: sets how many synthetic traders run, and ${config.file} has none (its traders are the fills file's); add traders.synthetic to the config, or leave --traders out`,
    );
  if (total < blocks.length)
    throw new BacktestInputError(
      `--traders: expected at least ${blocks.length} (one for each of the config's ${blocks.length} traders.synthetic blocks), got ${total}`,
    );
  const counts = shares(
    blocks.map((b) => b.count),
    total,
  );
  const largest = Math.max(...counts);
  if (largest > MAX_BLOCK_TRADERS)
    throw new BacktestInputError(
      `--traders: at most ${MAX_BLOCK_TRADERS.toLocaleString('en-US')} traders a traders.synthetic block; ${total.toLocaleString('en-US')} would give one ${largest.toLocaleString('en-US')}`,
    );
  return { ...config, synthetic: blocks.map((block, i) => ({ ...block, count: counts[i]! })) };
}

/** `total` split in proportion to `weights` (each ≥ 1), each share at least 1 (total ≥ weights.length). */
export function shares(weights: readonly number[], total: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w * total) / sum);
  const counts = exact.map(Math.floor);
  const byRemainder = exact
    .map((x, i) => ({ i, rest: x - Math.floor(x) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  const short = total - counts.reduce((a, b) => a + b, 0);
  for (let k = 0; k < short; k++) counts[byRemainder[k]!.i]!++;
  // A block whose share rounds to none still runs one trader, taken from the largest block.
  for (let i = 0; i < counts.length; i++) {
    if (counts[i]! > 0) continue;
    const largest = counts.indexOf(Math.max(...counts));
    counts[largest]!--;
    counts[i] = 1;
  }
  return counts;
}
