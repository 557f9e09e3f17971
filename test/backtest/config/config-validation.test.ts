// A back-test config is checked up front (docs/backtesting.md#the-config-file): every error names the field, the
// CLI exits 2 and nothing is run or written. Each case is checked in-process (loadBacktestConfig), and a
// representative set through the CLI as well (each spawn costs about a second, so those run concurrently).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { expandGrid } from '../../../src/backtest/config/grid.js';
import { isInputError } from '../../../src/cli/input-error.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const BIN = fileURLToPath(new URL('../../../bin/propsim.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'propsim-backtest-config-'));

type Config = Record<string, unknown>;

/** A valid config (the hand-checked one, with absolute paths); each case changes one thing. */
function base(): Config {
  return {
    name: 'validation',
    seed: 1,
    market: { files: [{ path: join(FIXTURES, 'esm6-ticks.csv'), format: 'ticks', instrument: 'ESM6' }] },
    period: { from: '2026-04-07', to: '2026-04-09' },
    traders: { fills: { path: join(FIXTURES, 'trader-fills.csv') } },
    plans: {
      'mini-50k': {
        starting_balance: '50000',
        risk_profile: { max_drawdown_mode: 'eod_balance', max_drawdown_value: '1000', daily_loss_value: '1000' },
        passing_criteria: { profit_target: '1000' },
      },
    },
    base_plan: 'mini-50k',
    grid: { 'risk_profile.max_drawdown_value': ['500', '1500'], 'risk_profile.daily_loss_value': [null, '300'] },
    economics: { price_paid: '100.00', payout_share: '0.80' },
  };
}

let files = 0;
/** Writes the config as JSON (a YAML document too) into the temp folder; relative paths resolve from there. */
function write(config: Config): string {
  const path = join(dir, `config-${++files}.yaml`);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

/** The 1-based line of the `nth` line of the file holding `text`. */
function lineOf(path: string, text: string, nth = 1): number {
  const lines = readFileSync(path, 'utf8').split('\n');
  const found = lines.flatMap((line, i) => (line.includes(text) ? [i + 1] : []));
  return found[nth - 1]!;
}

const synthetic = (value: unknown): Config => ({ ...base(), traders: { synthetic: value } });

/** The base config with ann's fills at these times (buy, sell, …), in a file of the temp folder. */
function fillsAt(name: string, times: string[]): Config {
  const rows = times.map((ts, i) => `${ts},ann,ESM6,${i % 2 === 0 ? 'buy' : 'sell'},1,5000.00`);
  writeFileSync(join(dir, name), ['ts,trader,instrument,side,quantity,price', ...rows, ''].join('\n'));
  return { ...base(), traders: { fills: { path: name } } };
}

interface Case {
  name: string;
  config: Config;
  /** Substrings of the message: the field first. */
  says: string[];
}

const CASES: Case[] = [
  {
    name: 'a grid value that makes an invalid plan',
    config: { ...base(), grid: { 'risk_profile.max_drawdown_value': ['500', '60000'] } },
    says: ['grid.risk_profile.max_drawdown_value[1]: max_drawdown_value 60000.00 must be below the starting balance'],
  },
  {
    name: 'a grid value that makes another field of the plan invalid',
    config: { ...base(), grid: { starting_balance: ['50000', '800'] } },
    says: ['grid cell starting_balance=800: risk_profile.max_drawdown_value', 'below the starting balance'],
  },
  {
    name: 'a grid value that is a whole section of the plan',
    config: { ...base(), grid: { risk_profile: [{ max_drawdown_value: '500' }] } },
    says: ['grid.risk_profile[0]: risk_profile.max_drawdown_mode: expected one of'],
  },
  {
    name: 'a grid value outside an enum',
    config: { ...base(), grid: { 'risk_profile.max_drawdown_mode': ['eod_balance', 'sideways'] } },
    says: ['risk_profile.max_drawdown_mode', 'sideways'],
  },
  {
    name: 'null on a required plan field',
    config: { ...base(), grid: { 'risk_profile.max_drawdown_value': [null] } },
    says: ['grid.risk_profile.max_drawdown_value[0]: expected', 'required'],
  },
  {
    name: 'a grid field the plan does not have',
    config: { ...base(), grid: { 'risk_profile.bogus_field': ['1'] } },
    says: ['risk_profile.bogus_field', 'unknown key'],
  },
  {
    name: 'a grid key that is not a dotted field',
    config: { ...base(), grid: { 'Risk-Profile.x': ['1'] } },
    says: ['grid.Risk-Profile.x', 'dotted plan field'],
  },
  {
    name: 'an empty list of grid values',
    config: { ...base(), grid: { 'risk_profile.max_drawdown_value': [] } },
    says: ['grid.risk_profile.max_drawdown_value', 'non-empty list'],
  },
  {
    name: 'an unknown strategy',
    config: synthetic({ count: 3, strategy: 'martingale' }),
    says: ['traders.synthetic.strategy', 'random_bracket, momentum_breakout, mean_reversion', 'martingale'],
  },
  {
    name: 'contracts: [3, 1]',
    config: synthetic({ count: 3, strategy: 'random_bracket', params: { contracts: [3, 1] } }),
    says: ['traders.synthetic.params', 'params.contracts', '[3,1]'],
  },
  {
    name: "a parameter the strategy does not have (lookback_minutes is not random_bracket's)",
    config: synthetic({ count: 3, strategy: 'random_bracket', params: { lookback_minutes: 30 } }),
    says: [
      'traders.synthetic.params',
      'params.lookback_minutes: unknown parameter of random_bracket',
      'trades_per_day',
    ],
  },
  {
    name: 'a bad parameter in the second block',
    config: synthetic([
      { count: 2, strategy: 'random_bracket' },
      { count: 2, strategy: 'momentum_breakout', params: { lookback_minutes: 0 } },
    ]),
    says: ['traders.synthetic[1].params', 'params.lookback_minutes'],
  },
  {
    name: 'a non-integer stop range',
    config: synthetic({ count: 1, strategy: 'mean_reversion', params: { stop_ticks: [4.5, 10] } }),
    says: ['traders.synthetic.params', 'params.stop_ticks'],
  },
  {
    name: 'stop_after_daily_lock: "yes"',
    config: synthetic({ count: 1, strategy: 'random_bracket', params: { stop_after_daily_lock: 'yes' } }),
    says: ['traders.synthetic.params', 'params.stop_after_daily_lock', 'true or false', '"yes"'],
  },
  {
    name: 'quit_after_failure: 1',
    config: synthetic({ count: 1, strategy: 'momentum_breakout', params: { quit_after_failure: 1 } }),
    says: ['traders.synthetic.params', 'params.quit_after_failure', 'true or false'],
  },
  {
    name: 'daily_profit_stop as a number',
    config: synthetic({ count: 1, strategy: 'random_bracket', params: { daily_profit_stop: 500 } }),
    says: ['traders.synthetic.params', 'params.daily_profit_stop', 'a decimal string greater than zero', 'quote it'],
  },
  {
    name: 'size_down_within: "0"',
    config: synthetic({ count: 1, strategy: 'mean_reversion', params: { size_down_within: '0' } }),
    says: ['traders.synthetic.params', 'params.size_down_within', 'greater than zero', '"0"'],
  },
  { name: 'count 0', config: synthetic({ count: 0, strategy: 'random_bracket' }), says: ['traders.synthetic.count'] },
  {
    name: 'no traders',
    config: { ...base(), traders: {} },
    says: ['traders', 'fills, synthetic, kinds or several of them'],
  },
  {
    name: 'an inverted period',
    config: { ...base(), period: { from: '2026-04-09', to: '2026-04-07' } },
    says: ['period.to', 'no earlier than period.from (2026-04-09)', '2026-04-07'],
  },
  {
    name: 'a period date that is not YYYY-MM-DD',
    config: { ...base(), period: { from: '2026-4-7', to: '2026-04-09' } },
    says: ['period.from', 'YYYY-MM-DD'],
  },
  {
    name: 'a missing market file',
    config: { ...base(), market: { files: [{ path: 'missing-ticks.csv', format: 'ticks', instrument: 'ESM6' }] } },
    says: ['market.files[0].path', 'missing-ticks.csv'],
  },
  {
    name: 'a missing fills file',
    config: { ...base(), traders: { fills: { path: 'missing-fills.csv' } } },
    says: ['traders.fills.path', 'missing-fills.csv'],
  },
  {
    name: 'a fills file whose every execution lies outside the period',
    config: fillsAt('march-fills.csv', ['2026-03-02T08:31:00-06:00', '2026-03-04T09:01:00-06:00']),
    says: [
      'traders.fills.path: every execution of march-fills.csv lies outside the period 2026-04-07 to 2026-04-09: its fills span trade dates 2026-03-02 to 2026-03-04; move the period or use another fills file',
    ],
  },
  {
    // The period's sessions run from 04-06 17:00 CT to 04-09 16:00 CT; the close is the next session's (04-10).
    name: 'fills just before the first session opens and at the close of the last',
    config: fillsAt('edge-fills.csv', ['2026-04-06T15:59:00-05:00', '2026-04-09T16:00:00-05:00']),
    says: ['its fills span trade dates 2026-04-06 to 2026-04-10'],
  },
  {
    name: 'an unknown base_plan',
    config: { ...base(), base_plan: 'eval-75k-nope' },
    says: ['base_plan', 'eval-75k-nope'],
  },
  {
    name: 'an invalid plan in plans',
    config: {
      ...base(),
      plans: { 'mini-50k': { ...((base().plans as Config)['mini-50k'] as Config), starting_balance: '-1' } },
    },
    says: ['plans.mini-50k.starting_balance'],
  },
  {
    name: 'a payout share above 1',
    config: { ...base(), economics: { price_paid: '100.00', payout_share: '1.5' } },
    says: ['economics.payout_share', '1.5'],
  },
  {
    name: 'a negative price paid',
    config: { ...base(), economics: { price_paid: '-1', payout_share: '0.5' } },
    says: ['economics.price_paid'],
  },
  { name: 'an unknown top-level key', config: { ...base(), seeed: 1 }, says: ['seeed', 'unknown key'] },
  {
    // base() has 2 x 2 = 4 cells, numbered 0 to 3.
    name: 'a compare_to beyond the grid',
    config: { ...base(), compare_to: 4 },
    says: ['compare_to: expected a grid cell index from 0 to 3, got the number 4'],
  },
  {
    name: 'a negative compare_to',
    config: { ...base(), compare_to: -1 },
    says: ['compare_to: expected an integer of at least 0, got the number -1'],
  },
  {
    name: 'an evaluation billed otherwise than one_time or monthly',
    config: { ...base(), economics: { evaluation: { fee: '165.00', billing: 'weekly' } } },
    says: ['economics.evaluation.billing: expected one of one_time, monthly, got "weekly"'],
  },
  {
    name: 'a reset rate above 1',
    config: { ...base(), economics: { evaluation: { fee: '165.00', reset: { fee: '99.00', rate: '1.5', max: 3 } } } },
    says: ['economics.evaluation.reset.rate: expected a share between "0" and "1", got "1.5"'],
  },
  { name: 'a compare_to that is not a whole number', config: { ...base(), compare_to: '1' }, says: ['compare_to'] },
];

/** Runs the CLI without blocking, so several spawns share the wait. */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

describe('back-test config validation', () => {
  it('the valid base config loads and expands to 4 cells (plans from fixtures/plans resolve too)', () => {
    const config = loadBacktestConfig(write(base()));
    expect(expandGrid(config.grid).map((c) => c.label)).toEqual([
      'risk_profile.max_drawdown_value=500 risk_profile.daily_loss_value=none',
      'risk_profile.max_drawdown_value=500 risk_profile.daily_loss_value=300',
      'risk_profile.max_drawdown_value=1500 risk_profile.daily_loss_value=none',
      'risk_profile.max_drawdown_value=1500 risk_profile.daily_loss_value=300',
    ]);
    const referenced = loadBacktestConfig(write({ ...base(), plans: undefined, base_plan: 'eval-50k-eod' }));
    expect(referenced.basePlanName).toBe('eval-50k-eod');
    expect(referenced.basePlan).toMatchObject({
      starting_balance: '50000.00',
      risk_profile: { max_drawdown_mode: 'eod_balance' },
    });
    // Defaults of the optional keys.
    const bare = loadBacktestConfig(write({ ...base(), seed: undefined, economics: undefined, grid: undefined }));
    expect(bare).toMatchObject({
      seed: 1,
      grid: [],
      economics: { pricePaidCents: 0, payoutShare: '0' },
      sampleTraders: 20,
      synthetic: [],
    });
    expect(bare.fillModel).toEqual({
      latencyMs: 0,
      cancelLatencyMs: 0,
      modifyLatencyMs: 0,
      slippageTicks: 0,
      limitFill: 'touch',
    });
    expect(expandGrid(bare.grid)).toEqual([{ index: 0, values: {}, label: 'base plan' }]);
    expect(bare.compareTo, 'compare_to defaults to cell 0').toBe(0);
    expect(loadBacktestConfig(write({ ...base(), compare_to: 3 })).compareTo).toBe(3);
  });

  it.each(CASES)('$name: the error names the field', ({ config, says }) => {
    const path = write(config);
    let error: unknown;
    try {
      loadBacktestConfig(path);
    } catch (caught) {
      error = caught;
    }
    expect(error, 'loadBacktestConfig should throw').toBeInstanceOf(Error);
    expect(isInputError(error), String(error)).toBe(true); // the CLI's exit-2 class
    const message = (error as Error).message;
    expect(message.startsWith(path)).toBe(true);
    for (const part of says) expect(message).toContain(part);
  });

  it('a grid value that makes the same plan as an earlier one is run, with a warning naming both (and its line)', () => {
    const grid = {
      'risk_profile.max_drawdown_value': ['500', '1500', '500.00'],
      'risk_profile.daily_loss_value': [null, '300', null],
    };
    const path = write({ ...base(), grid });
    const warnings: string[] = [];
    const config = loadBacktestConfig(path, (warning) => warnings.push(warning));
    expect(expandGrid(config.grid)).toHaveLength(9); // the repeats still make their cells
    expect(warnings).toEqual([
      `${path}:${lineOf(path, '"500.00"')}:7: grid.risk_profile.max_drawdown_value[2]: "500.00" makes the same plan as grid.risk_profile.max_drawdown_value[0] ("500"), so its cells repeat that value's cells, at the cost of a run each`,
      `${path}:${lineOf(path, 'null', 2)}:7: grid.risk_profile.daily_loss_value[2]: null makes the same plan as grid.risk_profile.daily_loss_value[0] (null), so its cells repeat that value's cells, at the cost of a run each`,
    ]);
    const distinct: string[] = [];
    loadBacktestConfig(write(base()), (warning) => distinct.push(warning));
    expect(distinct).toEqual([]);
  });

  it('a fills file with some executions in the period loads: the first session opens at 04-06 17:00 CT', () => {
    const config = loadBacktestConfig(
      write(fillsAt('open-fills.csv', ['2026-04-06T15:59:00-05:00', '2026-04-06T17:00:00-05:00'])),
    );
    expect(config.fills?.path).toBe(join(dir, 'open-fills.csv'));
  });

  it('a config file that cannot be read is invalid input too', () => {
    const path = join(dir, 'no-such-config.yaml');
    expect(() => loadBacktestConfig(path)).toThrow(`${path}: cannot read the back-test config (ENOENT)`);
  });

  it('the CLI exits 2 with the message on stderr, nothing on stdout and nothing written', async () => {
    const picks = [
      'a grid value that makes an invalid plan',
      'contracts: [3, 1]',
      'an inverted period',
      'a missing market file',
      'a fills file whose every execution lies outside the period',
    ];
    const runs = picks.map((name) => {
      const { config, says } = CASES.find((c) => c.name === name)!;
      const out = join(mkdtempSync(join(tmpdir(), 'propsim-backtest-invalid-')), 'out');
      return { says, out, result: cli(['backtest', '--config', write(config), '--out', out, '--workers', '1']) };
    });
    const out = join(mkdtempSync(join(tmpdir(), 'propsim-backtest-invalid-')), 'out');
    runs.push({
      says: ['--workers', 'at least 1'],
      out,
      result: cli(['backtest', '--config', write(base()), '--out', out, '--workers', '0']),
    });
    for (const run of runs) {
      const { status, stdout, stderr } = await run.result;
      expect(status, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^propsim backtest: /);
      expect(stderr).not.toContain('internal error');
      for (const part of run.says) expect(stderr).toContain(part);
      expect(existsSync(run.out)).toBe(false);
      expect(readdirSync(dirname(run.out))).toEqual([]); // no staging folder left either
    }
  });
});
