// `propsim calibrate` as a user runs it: broker exports in, kinds out; bad input exits 2 naming the file, line and
// field; the same seed gives the same bytes.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runCliAsync } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'propsim-calibrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string): string => fileURLToPath(new URL(`../import/fixtures/${name}`, import.meta.url));
const marketList = fileURLToPath(new URL('../../fixtures/market/6EH4-2024-01.yaml', import.meta.url));

/**
 * A NinjaTrader 8 executions export of four accounts over three January days (New York time): two scalp one ES
 * contract with 8-tick exits, five round trips a day; two swing 3 contracts with 40-tick exits, once a day. Each
 * account wins its first round trip of a day and loses the rest. January 2 to 4 read both ways: --date-order mdy.
 */
function ninjaTraderExport(): string {
  const rows = [
    'Instrument,Action,Quantity,Price,Time,ID,E/X,Position,Order ID,Name,Commission,Rate,Account,Connection,',
  ];
  let id = 0;
  const row = (action: string, quantity: number, ticks: number, day: number, minute: number, account: string) => {
    const price = (4700 + ticks * 0.25).toFixed(2);
    const hour = 9 + Math.floor(minute / 60);
    const time = `1/${day}/2024 ${hour}:${String(minute % 60).padStart(2, '0')}:00 AM`;
    rows.push(
      `ES 03-24,${action},${quantity},${price},${time},x${id++},Entry,-,o${id},Entry,$2.04,1,${account},Rithmic,`,
    );
  };
  for (const day of [2, 3, 4])
    for (const [account, trips, quantity, exit] of [
      ['Scalp-1', 5, 1, 8],
      ['Scalp-2', 5, 1, 8],
      ['Swing-1', 1, 3, 40],
      ['Swing-2', 1, 3, 40],
    ] as const)
      for (let trip = 0; trip < trips; trip++) {
        row('Buy', quantity, 0, day, trip * 20, account);
        row('Sell', quantity, trip === 0 ? exit : -exit, day, trip * 20 + 10, account);
      }
  return `${rows.join('\r\n')}\r\n`;
}

/** `propsim calibrate` of the NinjaTrader export above, written to `out`, with more flags. */
function calibrateExport(out: string, flags: readonly string[]) {
  const file = join(dir, 'executions.csv');
  if (!existsSync(file)) writeFileSync(file, ninjaTraderExport());
  return runCliAsync([
    'calibrate',
    '--format',
    'ninjatrader',
    file,
    '--tz',
    'America/New_York',
    '--date-order',
    'mdy',
    ...flags,
    '--out',
    out,
  ]);
}

describe('propsim calibrate', () => {
  it('a NinjaTrader export in, kinds in the back-test block shape out, a comment per kind', async () => {
    const out = join(dir, 'nt-kinds.yaml');
    const run = await calibrateExport(out, ['--kinds', '2']);
    expect(run.stderr).toContain(`wrote 2 kinds of 4 traders to ${out}`);
    expect(run.status).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(
      /^# kind 1: 2 real traders, 5\.0 round trips a day they trade, 1–1 contracts, losses 8–8 ticks/m,
    );
    expect(text).toMatch(/^# kind 2: 2 real traders, 1\.0 round trips a day they trade, 3–3 contracts/m);
    const blocks = parse(text) as Array<{ count: number; strategy: string; params: Record<string, unknown> }>;
    expect(blocks.map((b) => [b.count, b.strategy, b.params.contracts, b.params.trades_per_day])).toEqual([
      [2, 'random_bracket', [1, 1], 5],
      [2, 'random_bracket', [3, 3], 1],
    ]);
    // Every loss and win was 8 ticks: p10 = p90 = 8, so the range is [8, 8].
    expect(blocks[0]!.params.stop_ticks).toEqual([8, 8]);
    expect(blocks[0]!.params.target_ticks).toEqual([8, 8]);
  });

  it('a Tradovate export in (its Timestamp in --tz), kinds out', async () => {
    const out = join(dir, 'tradovate-kinds.yaml');
    const run = await runCliAsync([
      'calibrate',
      '--format',
      'tradovate',
      fixture('tradovate-fills.csv'),
      '--tz',
      'America/Chicago',
      '--date-order',
      'mdy',
      '--out',
      out,
    ]);
    expect(run.status).toBe(0);
    // DEMO123: one ES long, 4770.25 → 4772.50, a 9-tick win; DEMO456: one NQ short, a 77-tick win (the spread row is skipped).
    const blocks = parse(readFileSync(out, 'utf8')) as Array<{ count: number; params: Record<string, unknown> }>;
    expect(blocks.reduce((s, b) => s + b.count, 0)).toBe(2);
  });

  it('exits 2 naming the file, line and column of a bad row, and writes nothing', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(
      file,
      'ts,trader,instrument,side,quantity,price\n2024-01-02T15:00:00Z,ann,ESH4,buy,1,4700.00\n2024-01-02T15:10:00Z,ann,ESH4,short,1,4702.00\n',
    );
    const out = join(dir, 'bad-kinds.yaml');
    const run = await runCliAsync(['calibrate', file, '--out', out]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`propsim calibrate: ${file}:3`);
    expect(run.stderr).toMatch(/side.*buy or sell/);
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 on a bad flag value and on fills without a round trip', async () => {
    const file = join(dir, 'open.csv');
    writeFileSync(file, 'ts,trader,instrument,side,quantity,price\n2024-01-02T15:00:00Z,ann,ESH4,buy,1,4700.00\n');
    const holdout = await runCliAsync(['calibrate', file, '--out', join(dir, 'x.yaml'), '--holdout', '1.5']);
    expect(holdout.status).toBe(2);
    expect(holdout.stderr).toContain('--holdout: expected a share from 0 to under 1');
    const open = await runCliAsync(['calibrate', file, '--out', join(dir, 'x.yaml')]);
    expect(open.status).toBe(2);
    expect(open.stderr).toContain('no round trip in open.csv');
    const tz = await runCliAsync(['calibrate', file, '--out', join(dir, 'x.yaml'), '--tz', 'America/Chicago']);
    expect(tz.status).toBe(2);
    expect(tz.stderr).toContain('--tz: only for exports (--format tradovate, ninjatrader or generic)');
    const order = await runCliAsync(['calibrate', file, '--out', join(dir, 'x.yaml'), '--date-order', 'dmy']);
    expect(order.status).toBe(2);
    expect(order.stderr).toContain('--date-order: only for exports (--format tradovate, ninjatrader or generic)');
    expect(existsSync(join(dir, 'x.yaml'))).toBe(false);
  });

  it('the same seed gives the same kinds file and the same comparison, byte for byte', async () => {
    const runWith = (out: string) =>
      calibrateExport(out, ['--market', marketList, '--period', '2024-01-02:2024-01-03', '--seed', '4']);
    const [a, b] = await Promise.all([runWith(join(dir, 'a.yaml')), runWith(join(dir, 'b.yaml'))]);
    expect(a.status).toBe(0);
    expect(readFileSync(join(dir, 'a.yaml'), 'utf8')).toBe(readFileSync(join(dir, 'b.yaml'), 'utf8'));
    // Half of the four traders held out, and compared with the kinds traded on two days of 6E.
    expect(a.stderr).toContain('how close: 2 held-out traders');
    expect(a.stderr).toMatch(/traders with a round trip\s+2\s+\d+/);
    expect(a.stderr.replace(/a\.yaml/g, 'b.yaml')).toBe(b.stderr);
  });
});
