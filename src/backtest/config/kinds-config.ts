// `traders.kinds: { path, count? }` of a back-test config (docs/backtesting.md#calibrating-synthetic-traders): the
// blocks of a kinds file written by `propsim calibrate`, checked like the config's own blocks (errors name the kinds
// file, its line and column), and grown or shrunk to `count` traders in proportion to the file's counts.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Type } from 'typebox';
import { fail, FieldError } from '../../core/validation/input-fields.js';
import { checkFileValue } from '../../core/validation/file-check.js';
import { decodeScenarioSource } from '../../scenario/yaml-source.js';
import { ScenarioError } from '../../scenario/scenario-error.js';
import { MAX_BLOCK_TRADERS, SyntheticBlock } from './backtest-config-schema.js';
import { shares } from './trader-count.js';
import { readStrategyParams } from '../traders/strategy-params.js';
import type { SyntheticTraders } from '../traders/strategy.js';
import { parseInstruments } from './block-instruments.js';

const KindsFile = Type.Array(SyntheticBlock, {
  minItems: 1,
  expected: 'a list of blocks { count, strategy, params }, as propsim calibrate writes them',
});

export function readKindsFile(
  ref: { path: string; count?: number | undefined },
  configFile: string,
): SyntheticTraders[] {
  const path = resolve(dirname(resolve(configFile)), ref.path);
  if (!existsSync(path))
    fail(
      'traders.kinds.path',
      `an existing kinds file (relative to the config's folder; looked for ${path})`,
      ref.path,
    );
  const source = decodeScenarioSource(readFileSync(path, 'utf8'), path);
  const blocks = source.withPositions(() => {
    try {
      return checkFileValue(KindsFile, source.value).map((block, i) => {
        const params = block.params ?? {};
        try {
          readStrategyParams(block.strategy, params);
        } catch (error) {
          if (!(error instanceof FieldError)) throw error;
          throw new FieldError(`[${i}].params`, error.message);
        }
        // The roots calibrate measured (docs/backtesting.md#calibrating-synthetic-traders); absent in older files.
        const instruments = parseInstruments(block.instruments, `[${i}]`);
        return {
          count: block.count,
          strategy: block.strategy,
          params: { ...params },
          ...(instruments === undefined ? {} : { instruments }),
        };
      });
    } catch (error) {
      if (error instanceof FieldError)
        throw new ScenarioError(path, error.path, error.path, error.detail, { cause: error });
      throw error;
    }
  });
  if (ref.count === undefined) return blocks;
  if (ref.count < blocks.length)
    fail('traders.kinds.count', `at least ${blocks.length}, one trader for each kind of ${ref.path}`, ref.count);
  const counts = shares(
    blocks.map((b) => b.count),
    ref.count,
  );
  if (Math.max(...counts) > MAX_BLOCK_TRADERS)
    fail('traders.kinds.count', `a count giving no kind more than ${MAX_BLOCK_TRADERS} traders`, ref.count);
  return blocks.map((block, i) => ({ ...block, count: counts[i]! }));
}
