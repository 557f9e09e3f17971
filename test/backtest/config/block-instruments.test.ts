// `instruments:` in a synthetic block (docs/backtesting.md#several-instruments-and-contract-rolls): a list of roots
// (equal weights) or a mapping of roots to weights, all of one product group, since a back-test rolls sessions by
// one calendar. A bad value is refused naming the block, its line and the roots.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { isInputError } from '../../../src/cli/input-error.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'propsim-block-instruments-'));

type Block = Record<string, unknown>;

let files = 0;
/** A config over the ES ticks fixture with these synthetic blocks, written as JSON (a YAML document too); a null
 * instrument leaves the file's out. */
function write(blocks: Block[], instrument: string | null = 'ESM6'): string {
  const path = join(dir, `config-${++files}.yaml`);
  const file = { path: join(FIXTURES, 'esm6-ticks.csv'), format: 'ticks', ...(instrument ? { instrument } : {}) };
  const config = {
    name: 'instruments',
    market: { files: [file] },
    period: { from: '2026-04-07', to: '2026-04-09' },
    traders: { synthetic: blocks },
    base_plan: 'eval-50k-eod',
  };
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

function refusal(path: string): string {
  try {
    loadBacktestConfig(path);
  } catch (error) {
    expect(isInputError(error), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('the config was accepted');
}

/** The 1-based line of the first line holding `text`. */
function lineOf(path: string, text: string): number {
  return (
    readFileSync(path, 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1
  );
}

describe('instruments in a synthetic block', () => {
  it('a list of roots weighs each 1; a mapping gives each its weight', () => {
    const config = loadBacktestConfig(
      write([
        { count: 2, strategy: 'random_bracket', instruments: ['ES', 'NQ'] },
        { count: 2, strategy: 'random_bracket', instruments: { ES: 3, MNQ: 1 } },
        { count: 1, strategy: 'random_bracket' },
      ]),
    );
    expect(config.synthetic.map((b) => b.instruments)).toEqual([
      [
        { root: 'ES', weight: 1 },
        { root: 'NQ', weight: 1 },
      ],
      [
        { root: 'ES', weight: 3 },
        { root: 'MNQ', weight: 1 },
      ],
      undefined,
    ]);
  });

  it('without a first-file instrument the blocks name the roots, and every block must', () => {
    const named = loadBacktestConfig(write([{ count: 1, strategy: 'random_bracket', instruments: ['NQ'] }], null));
    expect(named.synthetic[0]!.instruments).toEqual([{ root: 'NQ', weight: 1 }]);
    const path = write(
      [
        { count: 1, strategy: 'random_bracket', instruments: ['NQ'] },
        { count: 1, strategy: 'random_bracket' },
      ],
      null,
    );
    expect(refusal(path)).toContain('market.files[0].instrument: expected the instrument of the first market file');
  });

  it('an unknown root in a mapping is refused at its key, listing the known roots', () => {
    const path = write([{ count: 1, strategy: 'random_bracket', instruments: { ES: 1, XX: 2 } }]);
    const message = refusal(path);
    expect(message).toContain('traders.synthetic[0].instruments.XX: expected a product root');
    expect(message).toContain('known roots: ES MES NQ');
  });

  it('a contract instead of a root, or a weight of 0, is refused', () => {
    expect(refusal(write([{ count: 1, strategy: 'random_bracket', instruments: ['ESM4'] }]))).toContain(
      'traders.synthetic[0].instruments',
    );
    expect(refusal(write([{ count: 1, strategy: 'random_bracket', instruments: { ES: 0 } }]))).toContain(
      'traders.synthetic[0].instruments',
    );
  });

  it('roots of two product groups in one block are refused, naming the block and the roots by group', () => {
    const path = write([{ count: 1, strategy: 'random_bracket', instruments: ['ES', 'NQ', 'CL'] }]);
    const message = refusal(path);
    expect(message).toContain(`${path}:${lineOf(path, '"instruments": [')}:`);
    expect(message).toContain('traders.synthetic[0].instruments: expected roots of one product group');
    expect(message).toContain('got ES, NQ (equity_index); CL (energy)');
  });

  it('a block whose roots are not of the first market file’s product group is refused, naming both', () => {
    const path = write([
      { count: 1, strategy: 'random_bracket', instruments: ['ES'] },
      { count: 1, strategy: 'random_bracket', instruments: ['6E', '6B'] },
    ]);
    const message = refusal(path);
    expect(message).toContain('traders.synthetic[1].instruments: expected roots of the equity_index product group');
    expect(message).toContain('market.files[0].instrument (ESM6)');
    expect(message).toContain('got 6E, 6B (fx)');
  });
});
