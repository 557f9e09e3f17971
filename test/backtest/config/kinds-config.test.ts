// traders.kinds of a back-test config (src/backtest/config/kinds-config.ts): a kinds file grown to a count in proportion,
// and its errors named at the kinds file's line and column.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';

const dir = mkdtempSync(join(tmpdir(), 'propsim-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bars = fileURLToPath(new URL('../../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));

const KINDS = `# propsim calibrate: 2 kinds
# kind 1: 13 real traders
- { count: 13, strategy: random_bracket, params: { trades_per_day: 6, contracts: [1, 1], stop_ticks: [6, 14], target_ticks: [10, 20], check_every_minutes: 3 } }
# kind 2: 17 real traders
- { count: 17, strategy: random_bracket, params: { trades_per_day: 2, contracts: [3, 5], stop_ticks: [29, 66], target_ticks: [39, 78], check_every_minutes: 25 } }
`;

function configWith(kinds: string, traders: string): string {
  writeFileSync(join(dir, 'kinds.yaml'), kinds);
  const path = join(dir, 'config.yaml');
  writeFileSync(
    path,
    `name: kinds
market:
  files: [ { path: ${bars}, format: bars, instrument: 6EH4 } ]
period: { from: 2024-01-02, to: 2024-01-05 }
traders: ${traders}
base_plan: eval-50k-eod
`,
  );
  return path;
}

describe('traders.kinds', () => {
  it("takes the kinds file's blocks as they are, or shares count out in proportion by largest remainder", () => {
    expect(
      loadBacktestConfig(configWith(KINDS, '{ kinds: { path: kinds.yaml } }')).synthetic.map((b) => b.count),
    ).toEqual([13, 17]);
    // 5000 × 13/30 = 2166.67, 5000 × 17/30 = 2833.33: floors 2166 + 2833 = 4999, the larger remainder (0.67) gets one.
    const grown = loadBacktestConfig(configWith(KINDS, '{ kinds: { path: kinds.yaml, count: 5000 } }')).synthetic;
    expect(grown.map((b) => b.count)).toEqual([2167, 2833]);
    expect(grown[1]!.params).toEqual({
      trades_per_day: 2,
      contracts: [3, 5],
      stop_ticks: [29, 66],
      target_ticks: [39, 78],
      check_every_minutes: 25,
    });
  });

  it('names the kinds file, line and column of a bad block', () => {
    const bad = KINDS.replace('stop_ticks: [29, 66]', 'stop_ticks: [66, 29]');
    // Line 5, column 50: the params mapping of the second block.
    expect(() => loadBacktestConfig(configWith(bad, '{ kinds: { path: kinds.yaml } }'))).toThrow(
      `${join(dir, 'kinds.yaml')}:5:50: [1].params: params.stop_ticks: expected a positive integer or [low, high], got [66,29]`,
    );
  });

  it('refuses a count below the number of kinds, and a missing kinds file, naming the config field', () => {
    expect(() => loadBacktestConfig(configWith(KINDS, '{ kinds: { path: kinds.yaml, count: 1 } }'))).toThrow(
      /config\.yaml:\d+:\d+: traders\.kinds\.count: expected at least 2, one trader for each kind of kinds\.yaml/,
    );
    expect(() => loadBacktestConfig(configWith(KINDS, '{ kinds: { path: none.yaml } }'))).toThrow(
      /traders\.kinds\.path: expected an existing kinds file/,
    );
  });

  it("reads a kinds file's instruments as a block's, and refuses roots outside the market's product group", () => {
    const withRoots = KINDS.replace(
      'strategy: random_bracket, params: { trades_per_day: 6',
      'strategy: random_bracket, instruments: [6E], params: { trades_per_day: 6',
    ).replace(
      'strategy: random_bracket, params: { trades_per_day: 2',
      'strategy: random_bracket, instruments: { 6E: 3, 6B: 1 }, params: { trades_per_day: 2',
    );
    const [first, second] = loadBacktestConfig(configWith(withRoots, '{ kinds: { path: kinds.yaml } }')).synthetic;
    expect(first!.instruments).toEqual([{ root: '6E', weight: 1 }]);
    expect(second!.instruments).toEqual([
      { root: '6E', weight: 3 },
      { root: '6B', weight: 1 },
    ]);
    // The market is 6EH4 (fx): an ES kind would be traded on another calendar, so it is refused, naming the kind.
    const es = KINDS.replace(
      'strategy: random_bracket, params: { trades_per_day: 2',
      'strategy: random_bracket, instruments: [ES], params: { trades_per_day: 2',
    );
    expect(() => loadBacktestConfig(configWith(es, '{ kinds: { path: kinds.yaml } }'))).toThrow(
      /traders\.kinds \(kinds\.yaml \[1\]\)\.instruments: expected roots of the fx product group/,
    );
  });
});
