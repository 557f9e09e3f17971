// `propsim import fills|market` as a user runs it: exit codes, the counts on stderr, and no --out on bad input.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCliAsync } from './run-cli.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../import/fixtures/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'propsim-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('propsim import fills', () => {
  it('exits 0 and shows per trader the rows read, kept, deduplicated and skipped', async () => {
    const out = join(dir, 'tradovate.csv');
    const { status, stderr } = await runCliAsync([
      'import',
      'fills',
      '--format',
      'tradovate',
      fixture('tradovate-fills.csv'),
      '--tz',
      'America/Chicago',
      '--out',
      out,
    ]);
    expect(status).toBe(0);
    expect(stderr).toContain('warning: ');
    expect(stderr).toContain(`wrote 4 fills of 2 traders to ${out}`);
    expect(stderr).toMatch(/DEMO123\s+3\s+2\s+1\s+0\n/);
    expect(stderr).toMatch(/DEMO456\s+3\s+2\s+0\s+1\n/);
    expect(readFileSync(out, 'utf8').split('\n')[1]).toBe('2024-01-02T15:31:05.000Z,DEMO123,ESH4,buy,1,4770.25,1.29');
  });

  it('exits 2 naming --tz when a NinjaTrader export is read without it, and writes nothing', async () => {
    const out = join(dir, 'nt.csv');
    const { status, stderr } = await runCliAsync([
      'import',
      'fills',
      '--format',
      'ninjatrader',
      fixture('ninjatrader-executions.csv'),
      '--out',
      out,
    ]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^propsim import fills: --tz: required: .*ninjatrader-executions\.csv: column Time/);
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 on a bad row, naming file, line and column, and leaves an older --out untouched', async () => {
    const out = join(dir, 'kept.csv');
    writeFileSync(out, 'older\n');
    const bad = join(dir, 'bad-nt.csv');
    writeFileSync(
      bad,
      readFileSync(fixture('ninjatrader-executions.csv'), 'utf8').replace('NQ 03-24,Sell', 'NQ 03-24,Hold'),
    );
    const { status, stderr } = await runCliAsync([
      'import',
      'fills',
      '--format',
      'ninjatrader',
      bad,
      '--tz',
      'America/New_York',
      '--out',
      out,
    ]);
    expect(status).toBe(2);
    expect(stderr).toContain(`${bad}:4: column Action: expected Buy or Sell`);
    expect(readFileSync(out, 'utf8')).toBe('older\n');
  });
});

describe('propsim import market', () => {
  it('exits 0 and counts spreads and rows left out by --symbols', async () => {
    const out = join(dir, 'ticks.csv');
    const { status, stderr } = await runCliAsync([
      'import',
      'market',
      '--format',
      'databento',
      fixture('databento-trades-pretty.csv'),
      '--symbols',
      'ESH4',
      '--out',
      out,
    ]);
    expect(status).toBe(0);
    expect(stderr).toContain(`read 6 rows; wrote 4 prints to ${out} (ESH4 4)`);
    expect(stderr).toContain('skipped 1 row of spreads');
    expect(stderr).toContain('left out 1 row of other contracts (--symbols)');
  });

  it('exits 2 on a price off the tick grid, naming file, line and column, and writes no --out', async () => {
    const bad = join(dir, 'bad-trades.csv');
    writeFileSync(
      bad,
      readFileSync(fixture('databento-trades.csv'), 'utf8').replace('16810750000000', '16810760000000'),
    );
    const out = join(dir, 'none.csv');
    const { status, stderr } = await runCliAsync(['import', 'market', '--format', 'databento', bad, '--out', out]);
    expect(status).toBe(2);
    expect(stderr).toContain(`${bad}:6: column price: expected a decimal on the 0.25 tick grid`);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('exits 2 on an unknown --symbols contract', async () => {
    const { status, stderr } = await runCliAsync([
      'import',
      'market',
      '--format',
      'databento',
      fixture('databento-trades.csv'),
      '--symbols',
      'XXH4',
      '--out',
      join(dir, 'x.csv'),
    ]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^propsim import market: --symbols: expected contracts such as ESH4,NQH4, got "XXH4"/);
  });
});
