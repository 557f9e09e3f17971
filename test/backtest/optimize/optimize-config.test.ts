// An optimize config is checked up front (docs/optimizing.md#the-config): every error names the file, line, column
// and the field as written (search.…, not the grid it becomes), and the CLI exits 2 with nothing run or written.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadOptimizeConfig } from '../../../src/backtest/optimize/optimize-config.js';
import { runCli } from '../../cli/run-cli.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/search-6e.yaml', import.meta.url));
const MARKET = fileURLToPath(new URL('../../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'propsim-optimize-config-'));

let files = 0;
/** The fixture with its market path made absolute and `edit` applied to its text. */
function write(edit: (text: string) => string): string {
  const text = readFileSync(FIXTURE, 'utf8').replace('../../../../fixtures/market/6EH4-2024-01.csv.gz', MARKET);
  const path = join(dir, `config-${++files}.yaml`);
  writeFileSync(path, edit(text));
  return path;
}

const error = (path: string) => {
  try {
    loadOptimizeConfig(path);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
};

/** The 1-based line of the file holding `text`. */
const lineOf = (path: string, text: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text)) + 1;

describe('optimize config errors', () => {
  it('reads the fixture: 3 × 2 candidates, maximize net per trader, fail rate at most 0.90', () => {
    const config = loadOptimizeConfig(write((t) => t));
    expect(config.backtest.grid).toEqual([
      { key: 'risk_profile.max_drawdown_value', values: ['1000', '1500', '2000'] },
      { key: 'passing_criteria.profit_target', values: ['1000', '3000'] },
    ]);
    expect(config.objective).toEqual({ direction: 'maximize', metric: 'net_per_trader' });
    expect(config.constraints).toEqual([{ metric: 'fail_rate', max: 0.9, text: { max: '0.90' } }]);
  });

  it('a grid beside search is refused, saying to move its axes under search', () => {
    const path = write((t) => t.replace('search:', 'grid:\n  risk_profile.daily_loss_value: [null]\nsearch:'));
    expect(error(path)).toBe(
      // The position of the grid's value: its first axis, on the line after `grid:`.
      `${path}:${lineOf(path, 'grid:') + 1}:3: grid: an optimize config searches plan fields under search (a list or a range { from, to, step } per field); a grid is for propsim backtest: move its axes under search`,
    );
  });

  it('a candidate plan that is invalid names the search field as written, with its line', () => {
    // A range up to 60,000: max_drawdown_value must stay below the starting balance of 50,000.
    const range = write((t) => t.replace('to: "2000", step: "500"', 'to: "60000", step: "29500"'));
    expect(error(range)).toMatch(
      new RegExp(
        `^${range}:${lineOf(range, 'risk_profile.max_drawdown_value:')}:\\d+: search\\.risk_profile\\.max_drawdown_value: .*below the starting balance`,
      ),
    );
    const list = write((t) => t.replace('["1000", "3000"]', '["1000", "-5"]'));
    expect(error(list)).toMatch(
      new RegExp(
        `^${list}:${lineOf(list, 'passing_criteria.profit_target:')}:\\d+: search\\.passing_criteria\\.profit_target\\[1\\]: `,
      ),
    );
  });

  it('refuses both maximize and minimize, an unknown metric, a min above a max, and a funded field', () => {
    expect(
      error(write((t) => t.replace('maximize: net_per_trader', 'maximize: net_per_trader\n  minimize: fail_rate'))),
    ).toContain('objective: expected one of maximize or minimize, not both');
    expect(error(write((t) => t.replace('maximize: net_per_trader', 'maximize: profit')))).toMatch(
      /objective\.maximize: expected one of pass_rate, fail_rate, net_per_trader, got "profit"/,
    );
    expect(error(write((t) => t.replace('{ max: "0.90" }', '{ min: "0.5", max: "0.4" }')))).toContain(
      'objective.constraints.fail_rate.max: expected a value no less than min (0.5), got "0.4"',
    );
    expect(
      error(write((t) => t.replace('search:', 'search:\n  funded.risk_profile.max_drawdown_value: ["2000"]'))),
    ).toContain('search.funded.risk_profile.max_drawdown_value: expected a field of the evaluation plan');
  });

  it('warns about a search value that makes the same plan as an earlier one, naming it as written', () => {
    const path = write((t) => t.replace('["1000", "3000"]', '["1000", "1000.00"]'));
    const warnings: string[] = [];
    loadOptimizeConfig(path, (w) => warnings.push(w));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^${path}:${lineOf(path, 'passing_criteria.profit_target:')}:\\d+: search\\.passing_criteria\\.profit_target\\[1\\]: "1000\\.00" makes the same plan as search\\.passing_criteria\\.profit_target\\[0\\]`,
      ),
    );
  });

  it('reads confirmation.period, and refuses one that ends before it starts, overlaps the search or has no trade date', () => {
    const confirmation = (from: string, to: string) => (t: string) =>
      `${t}confirmation: { period: { from: ${from}, to: ${to} } }\n`;
    expect(loadOptimizeConfig(write(confirmation('2024-01-16', '2024-01-31'))).confirmationPeriod).toEqual({
      from: '2024-01-16',
      to: '2024-01-31',
    });
    expect(loadOptimizeConfig(write((t) => t)).confirmationPeriod).toBeUndefined();
    expect(error(write(confirmation('2024-01-31', '2024-01-16')))).toContain(
      'confirmation.period.to: expected a date no earlier than confirmation.period.from (2024-01-31), got "2024-01-16"',
    );
    // The search runs 2024-01-02 to 2024-01-12: a confirmation from the 12th shares a trade date with it.
    expect(error(write(confirmation('2023-12-20', '2024-01-02')))).toContain(
      "confirmation.period: expected a period that does not overlap the search's period (2024-01-02 to 2024-01-12)",
    );
    expect(error(write(confirmation('2024-01-12', '2024-01-19')))).toContain('got "2024-01-12 to 2024-01-19"');
    // A weekend: Saturday 20 and Sunday 21 January 2024.
    expect(error(write(confirmation('2024-01-20', '2024-01-21')))).toContain(
      'confirmation.period: expected a period holding at least one 6EH4 trade date (weekends and exchange holidays have none), got "2024-01-20 to 2024-01-21"',
    );
  });

  it('the CLI exits 2 on a bad config and writes nothing', () => {
    const path = write((t) => t.replace('step: "500"', 'step: "0"'));
    const out = join(dir, 'never');
    const run = runCli(['optimize', '--config', path, '--out', out]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`search.risk_profile.max_drawdown_value.step: expected a step greater than 0`);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
  });
});
