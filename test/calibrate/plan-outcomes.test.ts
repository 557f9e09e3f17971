// `propsim calibrate --plan NAME` (docs/backtesting.md#outcomes-under-a-plan): the held-out traders' own fills
// and the kinds, back-tested under the plan, compared on first outcomes. The verdict's numbers are checked against
// two back-tests run independently through `propsim backtest` (the held-out traders as a fills file, the kinds as
// traders.kinds), and the refusals exit 2 writing nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { syntheticFills } from '../../src/calibrate/synthetic-fills.js';
import { splitTraders } from '../../src/calibrate/calibrate.js';
import { freemanHaltonP } from '../../src/calibrate/freeman-halton.js';
import { traitsOf } from '../../src/calibrate/trader-traits.js';
import { readTraderFills } from '../../src/backtest/fills/trader-fills.js';
import { plainFillsCsv } from '../../src/import/fills-csv.js';
import { FIRM_STYLES } from '../../scripts/calibration-styles.js';
import { pText } from '../../src/reports/signal-or-noise.js';
import { runCliAsync } from '../cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'propsim-plan-outcomes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bars = fileURLToPath(new URL('../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
const marketList = fileURLToPath(new URL('../../fixtures/market/6EH4-2024-01.yaml', import.meta.url));
const PERIOD = { from: '2024-01-02', to: '2024-01-19' };

/** A small firm: the stand-in firm's four styles, a quarter of each (15, 15, 10, 10 traders), on January 2024 6E. */
const STYLES = FIRM_STYLES.map((block) => ({ ...block, count: block.count / 4 }));

async function firmFills(): Promise<string> {
  const file = join(dir, 'firm-fills.csv');
  const fills = await syntheticFills(STYLES, {
    market: [{ path: bars, format: 'bars', instrument: '6EH4' }],
    period: { from: '2024-01-02', to: '2024-01-31' },
    seed: 5,
  });
  writeFileSync(file, plainFillsCsv(fills));
  return file;
}

/** `propsim backtest` of one group under eval-50k-eod over the period: each trader's first outcome and its day. */
async function backtest(name: string, traders: string): Promise<Array<{ outcome: string; day: number }>> {
  const config = join(dir, `${name}-config.yaml`);
  writeFileSync(
    config,
    [
      `name: ${name}`,
      'seed: 3',
      `market: { files: [{ path: ${bars}, format: bars, instrument: 6EH4 }] }`,
      `period: { from: ${PERIOD.from}, to: ${PERIOD.to} }`,
      `traders: ${traders}`,
      'base_plan: eval-50k-eod',
    ].join('\n'),
  );
  const run = await runCliAsync(['backtest', '--config', config, '--out', join(dir, `${name}-out`)]);
  expect(run.status, run.stderr).toBe(0);
  const [header, ...rows] = readFileSync(join(dir, `${name}-out`, 'traders.csv'), 'utf8')
    .trim()
    .split('\n');
  const columns = header!.split(',');
  const at = (row: string, column: string) => row.split(',')[columns.indexOf(column)]!;
  return rows.map((row) => ({ outcome: at(row, 'first_outcome'), day: Number(at(row, 'first_outcome_day')) }));
}

/** Half of the 50 traders held out; the kinds grown to 4 synthetic traders to each. */
const HELD = 25;
const SYNTHETIC = 4 * HELD;

const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

describe('propsim calibrate --plan', () => {
  it("compares the first outcomes of the held-out traders' fills and of the kinds, as two back-tests find them", async () => {
    const fillsFile = await firmFills();
    const out = join(dir, 'kinds.yaml');
    const run = await runCliAsync([
      'calibrate',
      fillsFile,
      '--out',
      out,
      '--market',
      marketList,
      '--period',
      `${PERIOD.from}:${PERIOD.to}`,
      '--seed',
      '3',
      '--plan',
      'eval-50k-eod',
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('');

    // The same held-out draw as the command (the seeded split of the traders with a round trip, in time order), and
    // the kinds grown to 4 synthetic traders to each held-out one: 25 held out of 50, so 100 (more than the kinds' 25).
    const fills = readTraderFills(fillsFile).sort((a, b) => a.timeMs - b.timeMs);
    const held = new Set(
      splitTraders(
        traitsOf(fills).filter((t) => t.roundTrips > 0),
        0.5,
        3,
      ).heldOut.map((t) => t.trader),
    );
    expect(held.size).toBe(HELD);
    const lines = readFileSync(fillsFile, 'utf8').trim().split('\n');
    writeFileSync(
      join(dir, 'held-out.csv'),
      [lines[0], ...lines.slice(1).filter((l) => held.has(l.split(',')[1]!))].join('\n') + '\n',
    );
    const blocks = parse(readFileSync(out, 'utf8')) as Array<{ count: number }>;
    expect(blocks.reduce((s, b) => s + b.count, 0)).toBe(HELD);
    const [heldOut, kinds] = await Promise.all([
      backtest('held-out', `{ fills: { path: ${join(dir, 'held-out.csv')} } }`),
      backtest('kinds', `{ kinds: { path: ${out}, count: ${SYNTHETIC} } }`),
    ]);
    expect([heldOut.length, kinds.length]).toEqual([HELD, SYNTHETIC]);

    const counts = (group: typeof heldOut) =>
      ['passed', 'failed', 'open'].map((o) => group.filter((t) => t.outcome === o).length);
    const [h, k] = [counts(heldOut), counts(kinds)];
    const p = freemanHaltonP(h, k);
    const shares = ['passed', 'failed', 'open']
      .map((o, i) => `${o} ${share(k[i]!, SYNTHETIC)} against ${share(h[i]!, HELD)}`)
      .join(', ');
    const verdict =
      p >= 0.05
        ? `the kinds reproduce the held-out traders' outcomes: ${shares} (p = ${pText(p)}, no evidence of a difference)`
        : `the kinds do not reproduce the held-out traders' outcomes: ${shares} (p ${p < 0.0001 ? '' : '= '}${pText(p)})`;
    expect(run.stderr).toContain(`propsim calibrate: ${verdict}\n`);
    // The table: counts and shares, and the share failed by day 5 and by the last of the period's 14 trade dates
    // (January 2–5, 8–12 and 15–19: the 15th, Martin Luther King Jr. Day, is a trade date with an early close).
    expect(run.stderr).toMatch(
      new RegExp(`\\nfailed\\s+${h[1]} \\(${share(h[1]!, HELD)}\\)\\s+${k[1]} \\(${share(k[1]!, SYNTHETIC)}\\)\\n`),
    );
    const byDay = (group: typeof heldOut, day: number) =>
      group.filter((t) => t.outcome === 'failed' && t.day <= day).length;
    expect(run.stderr).toMatch(
      new RegExp(`\\nfailed by day 5\\s+${share(byDay(heldOut, 5), HELD)}\\s+${share(byDay(kinds, 5), SYNTHETIC)}\\n`),
    );
    expect(run.stderr).toMatch(
      new RegExp(
        `\\nfailed by day 14 \\(the last\\)\\s+${share(byDay(heldOut, 14), HELD)}\\s+${share(byDay(kinds, 14), SYNTHETIC)}\\n`,
      ),
    );
    expect(run.stderr).toContain(`with ${HELD} held-out traders and ${SYNTHETIC} synthetic this`);
    expect(run.stderr).toContain('fail incidence by day is shown, not tested');
    // The verdict travels with the kinds, in the file's header.
    expect(readFileSync(out, 'utf8')).toContain(
      `# under eval-50k-eod, 2024-01-02 to 2024-01-19, the kinds ${p >= 0.05 ? 'reproduce' : 'do not reproduce'} the ${HELD} held-out traders' first outcomes: ${shares}`,
    );
  }, 120_000);

  it('refuses --plan without a market, a period, anyone held out or a held-out fill in the period, and an unknown plan; finds plans/ in the working folder', async () => {
    const file = join(dir, 'two.csv');
    writeFileSync(
      file,
      [
        'ts,trader,instrument,side,quantity,price',
        '2024-01-02T15:00:00Z,ann,6EH4,buy,1,1.10000',
        '2024-01-02T15:10:00Z,ann,6EH4,sell,1,1.10050',
        '2024-01-02T15:00:00Z,bob,6EH4,sell,1,1.10000',
        '2024-01-02T15:20:00Z,bob,6EH4,buy,1,1.10050',
      ].join('\n') + '\n',
    );
    const out = join(dir, 'refused.yaml');
    const market = ['--market', marketList, '--period', '2024-01-02:2024-01-05'];
    const noMarket = await runCliAsync(['calibrate', file, '--out', out, '--plan', 'eval-50k-eod']);
    expect(noMarket.status).toBe(2);
    expect(noMarket.stderr).toContain('--plan: back-tests held-out traders against the kinds on a market');
    expect(noMarket.stderr).toContain('missing --market, --period');
    const noHoldout = await runCliAsync(['calibrate', file, '--out', out, ...market, '--holdout', '0', '--plan', 'x']);
    expect(noHoldout.status).toBe(2);
    expect(noHoldout.stderr).toContain('missing --holdout above 0');
    // A plans/ folder in the working folder is where --plan looks first, and the message lists it.
    const cwd = join(dir, 'firm');
    mkdirSync(join(cwd, 'plans'), { recursive: true });
    writeFileSync(
      join(cwd, 'plans', 'house-50k.yaml'),
      readFileSync(join(fileURLToPath(new URL('../../fixtures/plans/', import.meta.url)), 'eval-50k-eod.yaml')),
    );
    const unknown = await runCliAsync(
      ['calibrate', file, '--out', out, ...market, '--plan', 'eval-5k'],
      undefined,
      {},
      { cwd },
    );
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /--plan: expected a plan file in \.\/plans \(house-50k\) or a bundled plan \(eval-100k-balance, .*eval-50k-eod, .*\), got "eval-5k"/,
    );
    // Held-out traders whose fills all lie outside the period would sit idle: no outcomes to compare.
    const idle = await runCliAsync(
      [
        'calibrate',
        file,
        '--out',
        out,
        '--market',
        marketList,
        '--period',
        '2024-01-08:2024-01-09',
        '--plan',
        'house-50k',
      ],
      undefined,
      {},
      { cwd },
    );
    expect(idle.status).toBe(2);
    expect(idle.stderr).toContain('--plan: the held-out trader has no fill in --period 2024-01-08:2024-01-09');
    expect(existsSync(out)).toBe(false);
    // The plan of the working folder's plans/ is found, and named by its path from there.
    const local = await runCliAsync(
      ['calibrate', file, '--out', out, ...market, '--plan', 'house-50k'],
      undefined,
      {},
      { cwd },
    );
    expect(local.status, local.stderr).toBe(0);
    expect(local.stderr).toContain(
      'outcomes under house-50k (plans/house-50k.yaml), 2024-01-02 to 2024-01-05 (4 trade dates)',
    );
  });
});
