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

/** `propsim import fills` of a Tradovate export: its Timestamp in Chicago time, its dates (all 01/02/2024) US. */
const importTradovate = (file: string, out: string) =>
  runCliAsync([
    'import',
    'fills',
    '--format',
    'tradovate',
    file,
    '--tz',
    'America/Chicago',
    '--date-order',
    'mdy',
    '--out',
    out,
  ]);

describe('propsim import fills', () => {
  it('exits 0 and shows per trader the rows read, kept, deduplicated and skipped', async () => {
    const out = join(dir, 'tradovate.csv');
    const { status, stderr } = await importTradovate(fixture('tradovate-fills.csv'), out);
    expect(status).toBe(0);
    expect(stderr).toContain('warning: ');
    expect(stderr).toContain(`wrote 4 fills of 2 traders to ${out}`);
    expect(stderr).toMatch(/DEMO123\s+3\s+2\s+1\s+0\n/);
    expect(stderr).toMatch(/DEMO456\s+3\s+2\s+0\s+1\n/);
    expect(readFileSync(out, 'utf8').split('\n')[1]).toBe('2024-01-02T15:31:05.000Z,DEMO123,ESH4,buy,1,4770.25,1.29');
  });

  it('warns once per file that de-duplication is off when the fill-id column is renamed, and how to turn it on', async () => {
    const renamed = join(dir, 'renamed-fills.csv');
    writeFileSync(renamed, readFileSync(fixture('tradovate-fills.csv'), 'utf8').replace('Fill ID,', 'FillNo,'));
    const out = join(dir, 'renamed-out.csv');
    const { status, stderr } = await importTradovate(renamed, out);
    expect(status).toBe(0);
    // Fill 1002, exported twice, is kept twice: 5 fills, DEMO123 3 read and 3 kept.
    expect(stderr).toBe(
      `propsim import fills: warning: ${renamed}: no fill-id column (looked for Fill ID or id): de-duplication is off, so a fill exported twice is kept twice; name the column with --map id=COLUMN\n` +
        `propsim import fills: wrote 5 fills of 2 traders to ${out}\n` +
        'trader   read  kept  deduplicated  skipped\nDEMO123  3     3     0             0\nDEMO456  3     2     0             1\n',
    );
  });

  it('exits 2 naming file:line on a row longer than 1 MiB, as the market readers do', async () => {
    // docs/market-data.md#line-length
    const long = join(dir, 'long-fills.csv');
    const [header, row] = readFileSync(fixture('tradovate-fills.csv'), 'utf8').split('\n');
    writeFileSync(long, `${header}\n${row}\n${'9'.repeat(2 << 20)}\n`);
    const out = join(dir, 'long-out.csv');
    const { status, stderr } = await importTradovate(long, out);
    expect(status, stderr).toBe(2);
    expect(stderr).toContain(`${long}:3: expected a line of at most 1,048,576 bytes (docs/market-data.md#line-length)`);
    expect(existsSync(out)).toBe(false);
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
      '--date-order',
      'mdy',
      '--out',
      out,
    ]);
    expect(status).toBe(2);
    expect(stderr).toContain(`${bad}:4: column Action: expected Buy or Sell`);
    expect(readFileSync(out, 'utf8')).toBe('older\n');
  });
});

describe('propsim import fills --date-order', () => {
  // A UK PC's NinjaTrader export of 2 and 3 January: 24-hour day/month times, every date 12 or less on both sides.
  const ukExport = (name: string, dates: readonly string[]): string => {
    const file = join(dir, name);
    const header =
      'Instrument,Action,Quantity,Price,Time,ID,E/X,Position,Order ID,Name,Commission,Rate,Account,Connection,';
    const rows = dates.map(
      (date, i) =>
        `ES 03-24,${i % 2 ? 'Sell' : 'Buy'},1,4770.25,${date} 09:31:05,x${i},Entry,-,o${i},Entry,$2.04,1,Sim101,Rithmic,`,
    );
    writeFileSync(file, [header, ...rows].join('\n') + '\n');
    return file;
  };
  const importUk = (file: string, out: string, more: readonly string[] = []) =>
    runCliAsync(['import', 'fills', '--format', 'ninjatrader', file, '--tz', 'Europe/London', ...more, '--out', out]);

  it('exits 2 on a file whose every date reads both ways, naming the file, the row and what each order reads', async () => {
    const file = ukExport('uk-early.csv', ['02/01/2024', '03/01/2024']);
    const out = join(dir, 'uk-early-fills.csv');
    const { status, stderr } = await importUk(file, out);
    expect(status).toBe(2);
    expect(stderr).toBe(
      `propsim import fills: --date-order: required: ${file}:2: column Time: "02/01/2024 09:31:05" reads as month/day (2024-02-01) or day/month (2024-01-02), and so does every date of the file: none has a day above 12 to show which comes first; --date-order mdy reads it as 2024-02-01, --date-order dmy as 2024-01-02\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('reads them as 2 and 3 January with --date-order dmy (London is UTC+0 in January)', async () => {
    const out = join(dir, 'uk-dmy-fills.csv');
    const { status } = await importUk(ukExport('uk-dmy.csv', ['02/01/2024', '03/01/2024']), out, [
      '--date-order',
      'dmy',
    ]);
    expect(status).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n').slice(1, 3)).toEqual([
      '2024-01-02T09:31:05.000Z,Sim101,ESH4,buy,1,4770.25,2.04',
      '2024-01-03T09:31:05.000Z,Sim101,ESH4,sell,1,4770.25,2.04',
    ]);
  });

  it('exits 2 on a date that reads only as day/month, saying the file looks like day/month', async () => {
    const file = ukExport('uk-month.csv', ['02/01/2024', '15/01/2024']);
    const out = join(dir, 'uk-month-fills.csv');
    const { status, stderr } = await importUk(file, out);
    expect(status).toBe(2);
    expect(stderr).toBe(
      `propsim import fills: --date-order: ${file}:3: column Time: "15/01/2024 09:31:05" reads only as day/month (there is no month 15): the file looks like day/month order; if so, read it with --date-order dmy\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 on a date impossible in the order given, naming the row and the order', async () => {
    const file = ukExport('uk-mdy.csv', ['02/01/2024', '15/01/2024']);
    const { status, stderr } = await importUk(file, join(dir, 'uk-mdy-fills.csv'), ['--date-order', 'mdy']);
    expect(status).toBe(2);
    expect(stderr).toBe(
      `propsim import fills: ${file}:3: column Time: expected a month/day/year date (date order mdy), got "15/01/2024 09:31:05"\n`,
    );
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

  it('exits 2 naming file:line on a line longer than 1 MiB (a file without newlines), nothing written', async () => {
    // docs/market-data.md#line-length: such a file was appended read by read until memory ran out.
    const long = join(dir, 'no-newlines.csv');
    const [header] = readFileSync(fixture('databento-trades.csv'), 'utf8').split('\n');
    writeFileSync(long, `${header}\n${'7'.repeat(3 << 20)}`);
    const out = join(dir, 'long.csv');
    const { status, stderr } = await runCliAsync(['import', 'market', '--format', 'databento', long, '--out', out]);
    expect(status, stderr).toBe(2);
    expect(stderr).toContain(`${long}:2: expected a line of at most 1,048,576 bytes (docs/market-data.md#line-length)`);
    expect(existsSync(out)).toBe(false);
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
