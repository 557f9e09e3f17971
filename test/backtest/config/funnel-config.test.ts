// The funnel's keys in the back-test config (docs/backtesting.md#the-funnel): read with the config's other fields,
// each error naming FILE:LINE:COL and the field; and how price_paid / payout_share relate to them.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { runBacktest } from '../../../src/backtest/run-backtest.js';
import { runCli } from '../../cli/run-cli.js';

const FUNNEL = fileURLToPath(new URL('../fixtures/funnel/', import.meta.url));
const HAND_CHECKED = fileURLToPath(new URL('../fixtures/hand-checked.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'propsim-funnel-config-'));
let files = 0;

/** The funnel fixture with one piece of text replaced, written to a temp file (market and fills by absolute path). */
function variant(from: string, to: string): string {
  const text = readFileSync(join(FUNNEL, 'funnel.yaml'), 'utf8')
    .replace('path: ticks.csv', `path: ${join(FUNNEL, 'ticks.csv')}`)
    .replace('path: fills.csv', `path: ${join(FUNNEL, 'fills.csv')}`);
  if (!text.includes(from)) throw new Error(`the fixture has no ${from}`);
  const path = join(dir, `funnel-${++files}.yaml`);
  writeFileSync(path, text.replace(from, to));
  return path;
}

function errorOf(path: string): string {
  try {
    loadBacktestConfig(path);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the config to be refused');
}

/** The 1-based line of the file that holds `text`. */
function lineOf(path: string, text: string): number {
  return (
    readFileSync(path, 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1
  );
}

describe('the funnel keys (economics.evaluation, economics.funded)', () => {
  it('reads the fixture: fees in cents, billing, reset, the funded plan by name and the payout rules', () => {
    const funnel = loadBacktestConfig(variant('seed: 1', 'seed: 1')).economics.funnel!;
    expect(funnel.evaluation).toEqual({
      feeCents: 10_000,
      billing: 'monthly',
      reset: { feeCents: 5_000, rate: '1', max: 1 },
    });
    expect(funnel.funded).toMatchObject({
      planName: 'funded-mini',
      activationFeeCents: 8_000,
      payout: {
        minDays: 2,
        winningDayCents: 10_000,
        minWinningDays: 2,
        bufferCents: 20_000,
        maxFraction: '0.5',
        capCents: 100_000,
        consistencyPct: '60',
        split: [{ upToCents: 30_000, trader: '1' }, { trader: '0.8' }],
      },
    });
  });

  it('price_paid beside the funnel is refused: it is the one-time evaluation fee, written evaluation.fee', () => {
    const path = variant('economics:\n', 'economics:\n  price_paid: "150.00"\n');
    expect(errorOf(path)).toContain(
      `${path}:${lineOf(path, 'price_paid')}:15: economics.price_paid: expected no price_paid`,
    );
    expect(errorOf(path)).toContain('write evaluation.fee');
  });

  it('billing other than one_time or monthly is refused at its line', () => {
    const path = variant('billing: monthly', 'billing: weekly');
    expect(errorOf(path)).toMatch(
      new RegExp(
        `:${lineOf(path, 'weekly')}:\\d+: economics\\.evaluation\\.billing: expected one of one_time, monthly`,
      ),
    );
  });

  it('through the CLI: exit 2, the message on stderr, nothing written', () => {
    const path = variant('billing: monthly', 'billing: weekly');
    const out = join(dir, 'never-written');
    const { status, stderr } = runCli(['backtest', '--config', path, '--out', out]);
    expect(status).toBe(2);
    expect(stderr).toContain(`${path}:${lineOf(path, 'weekly')}:`);
    expect(existsSync(out)).toBe(false);
  });

  it('a reset rate above 1 is refused', () => {
    expect(errorOf(variant('rate: "1"', 'rate: "1.5"'))).toContain('economics.evaluation.reset.rate');
  });

  it('an unknown funded plan is refused with the plans that exist', () => {
    const message = errorOf(variant('plan: funded-mini', 'plan: funded-nope'));
    expect(message).toMatch(
      /:27:11: economics\.funded\.plan: expected a plan defined under plans \("eval-mini", "funded-mini"\)/,
    );
    expect(message).toContain('or a bundled plan (');
    expect(message).toContain('funded-50k-eod), got "funded-nope"');
  });

  it('split tiers must rise and only the last has no up_to', () => {
    expect(errorOf(variant('{ trader: "0.8" }', '{ up_to: "200.00", trader: "0.8" }'))).toContain(
      'economics.funded.payout.split[1].up_to: expected no up_to on the last tier',
    );
    expect(errorOf(variant('{ trader: "0.8" }', '{ up_to: "200.00", trader: "0.8" }, { trader: "0.7" }'))).toContain(
      "economics.funded.payout.split[1].up_to: expected an amount above the previous tier's (300)",
    );
  });

  it('a funded.<field> grid axis is checked against the funded plan, and needs economics.funded', () => {
    const grid = 'base_plan: eval-mini\ngrid:\n  funded.risk_profile.max_drawdown_value: ["1000", "60000"]\n';
    expect(errorOf(variant('base_plan: eval-mini\n', grid))).toContain(
      'grid.funded.risk_profile.max_drawdown_value[1]: max_drawdown_value 60000.00 must be below the starting balance',
    );
    const withoutFunded = readFileSync(variant('base_plan: eval-mini\n', grid), 'utf8').replace(/ {2}funded:[^]*$/, '');
    const path = join(dir, 'no-funded.yaml');
    writeFileSync(path, withoutFunded);
    expect(errorOf(path)).toContain('grid.funded.risk_profile.max_drawdown_value: expected economics.funded');
  });

  it('reads the payout cadence: min_amount in cents, every_days, request (auto by default) and max_count', () => {
    const cadence =
      'split: [ { up_to: "300.00", trader: "1.0" }, { trader: "0.8" } ]\n      min_amount: "250.00"\n      every_days: 3\n      request: weekly\n      max_count: 4';
    const funnel = loadBacktestConfig(
      variant('split: [ { up_to: "300.00", trader: "1.0" }, { trader: "0.8" } ]', cadence),
    ).economics.funnel!;
    expect(funnel.funded!.payout).toMatchObject({
      minAmountCents: 25_000,
      everyDays: 3,
      request: 'weekly',
      maxCount: 4,
    });
    const plain = loadBacktestConfig(variant('seed: 1', 'seed: 1')).economics.funnel!.funded!.payout;
    expect(plain.request, 'auto: as soon as eligible, as before').toBe('auto');
    expect(['minAmountCents', 'everyDays', 'maxCount'].filter((key) => key in plain)).toEqual([]);
  });

  it('refuses a cadence it cannot follow, naming the field and what was expected', () => {
    const after = (line: string) => variant('consistency_pct: "60"', `consistency_pct: "60"\n      ${line}`);
    expect(errorOf(after('request: daily'))).toMatch(
      /economics\.funded\.payout\.request: expected one of auto, weekly, monthly/,
    );
    expect(errorOf(after('every_days: 0'))).toContain('economics.funded.payout.every_days: expected');
    expect(errorOf(after('max_count: 0'))).toContain('economics.funded.payout.max_count: expected');
    expect(errorOf(after('min_amount: "0"'))).toContain('economics.funded.payout.min_amount: expected');
    const aboveCap = after('min_amount: "1000.01"');
    expect(errorOf(aboveCap)).toContain(
      `${aboveCap}:${lineOf(aboveCap, 'min_amount')}:19: economics.funded.payout.min_amount: expected at most cap (1000.00): a payout is never larger than cap, so none would ever be taken, got "1000.01"`,
    );
    const out = join(dir, 'never-written-cadence');
    const { status, stderr } = runCli(['backtest', '--config', aboveCap, '--out', out]);
    expect(status, 'bad config input exits 2').toBe(2);
    expect(stderr).toContain('economics.funded.payout.min_amount');
    expect(existsSync(out)).toBe(false);
  });

  it('the economics cannot be a grid axis: a payout rule as an axis is refused by name', () => {
    for (const key of ['funded.payout.every_days', 'economics.funded.payout.every_days']) {
      const path = variant('base_plan: eval-mini\n', `base_plan: eval-mini\ngrid:\n  ${key}: [1, 5]\n`);
      expect(errorOf(path)).toContain(
        `grid.${key}: expected a field of a plan (the evaluation plan, or the funded plan as funded.<field>): the economics, fees and payout rules included, are not grid axes; run one config per value`,
      );
    }
  });

  it('an unknown payout key names the valid ones', () => {
    expect(errorOf(variant('min_days: 2', 'min_day: 2'))).toContain('economics.funded.payout');
  });
});

describe('without the funnel: price_paid and payout_share as before', () => {
  it("netCents = price_paid − payout_share × a passer's profit (half-even cents), summing to the cell's net", async () => {
    // hand-checked.yaml, cell 2: ann passes with profit 1,080: 100 − 0.80 × 1,080 = −764; bob 100. Net −664.
    const run = await runBacktest(loadBacktestConfig(HAND_CHECKED), { workers: 1 });
    const cell = run.cells[2]!;
    expect(cell.traders.map((t) => t.netCents)).toEqual([-76_400, 10_000]);
    expect(cell.summary.netCents).toBe(-66_400);
    // Without the funnel every fee is an evaluation fee: 2 traders × 100.00; payouts 864.00; net −664.00.
    expect(cell.summary.economics).toEqual({
      evaluationFeesCents: 20_000,
      resetFeesCents: 0,
      activationFeesCents: 0,
      payoutsCents: 86_400,
      netCents: -66_400,
      openFunded: 0,
      openLiabilityCents: 0,
      movedLive: 0,
    });
  });
});
