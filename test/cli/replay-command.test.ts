import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/index.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { slugOf } from '../../src/reports/replay-outputs.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { runScenario } from '../../src/scenario/runner.js';
import { CLI, runCli } from './run-cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'propsim-replay-'));

const FAILING = `name: wrong balance
start: 2026-03-10T09:00:00-05:00
plans:
  p: { starting_balance: "50000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "2000" }, passing_criteria: { profit_target: "3000" } }
accounts: [ { alias: a, plan: p } ]
steps:
  - fill: { account: a, instrument: ESM6, side: buy, quantity: 1, price: "5000.00" }
  - fill: { account: a, instrument: ESM6, side: sell, quantity: 1, price: "5001.00" }
  - expect: { account: a, balance: "50000" }
`;

describe('propsim replay', () => {
  it('runs every example scenario, writes events.jsonl, state.json and report.html, exits 0', () => {
    const out = tmp();
    const files = readdirSync('scenarios')
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => join('scenarios', f));
    expect(files.length).toBeGreaterThanOrEqual(6);
    const { status, stdout, stderr } = runCli(['replay', ...files, '--out', out]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout.split('\n').filter((l) => l.startsWith('PASS'))).toHaveLength(files.length);
    for (const folder of readdirSync(out)) {
      expect(readdirSync(join(out, folder)).sort()).toEqual(['events.jsonl', 'report.html', 'state.json']);
    }
  });

  it('--json prints the contract document; events_sha256 is the sha256 of events.jsonl', () => {
    const out = tmp();
    const { status, stdout } = runCli(['replay', 'scenarios/oco-bracket.yaml', '--out', out, '--json']);
    expect(status).toBe(0);
    const doc = JSON.parse(stdout);
    expect(Object.keys(doc)).toEqual(['scenario', 'passed', 'expectations', 'events_sha256', 'final']);
    expect(doc).toMatchObject({ scenario: 'oco bracket', passed: true });
    expect(Object.keys(doc.final)).toEqual(['accounts', 'orders']);
    expect(doc.expectations[0]).toMatchObject({
      step: 5,
      passed: true,
      subject: 'order entry',
      field: 'status',
      expected: 'FILLED',
      actual: 'FILLED',
    });
    const journal = readFileSync(join(out, 'oco-bracket', 'events.jsonl'));
    expect(doc.events_sha256).toBe(createHash('sha256').update(journal).digest('hex'));
  });

  it('docs/architecture.md#the-journal-goes-out-as-it-is-written: events.jsonl, written as the run goes, is the journal a run keeps in memory', async () => {
    const dir = tmp();
    const fills = Array.from(
      { length: 200 },
      (_, i) =>
        `  - fill: { account: a, instrument: ESM6, side: ${i % 2 === 0 ? 'buy' : 'sell'}, quantity: 1, price: "${5000 + (i % 5)}.00" }\n`,
    );
    const file = join(dir, 'many.yaml');
    writeFileSync(
      file,
      FAILING.replace('name: wrong balance', 'name: many').replace(/steps:\n[^]*$/, `steps:\n${fills.join('')}`),
    );
    for (const files of [[file], ['scenarios/passing.yaml']]) {
      const out = join(dir, 'out');
      const replayed = runCli(['replay', ...files, '--out', out]);
      expect(replayed.stderr).toBe('');
      expect(replayed.status).toBe(0);
      const scenario = loadScenarioFile(files[0]!);
      const kept = await runScenario(scenario, { calendar: new GlobexCalendar(loadHolidayFile()) });
      expect(kept.journal.split('\n').length, `${files[0]}: more lines than one chunk`).toBeGreaterThan(128);
      expect(readFileSync(join(out, slugOf(scenario.name), 'events.jsonl'), 'utf8'), files[0]).toBe(kept.journal);
    }
  });

  it('a market file row found bad mid-run: exit 2 naming the file and line; folders already in place stay as they were, nothing is staged', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'good.yaml'),
      FAILING.replace('name: wrong balance', 'name: good').replace(/ {2}- expect.*\n/, ''),
    );
    writeFileSync(
      join(dir, 'ticks.csv'),
      'ts,price\n2026-03-10T09:30:00-05:00,5000.00\n2026-03-10T09:31:00-05:00,abc\n',
    );
    writeFileSync(
      join(dir, 'bad-row.yaml'),
      `name: bad row
start: 2026-03-10T09:00:00-05:00
plans:
  p: { starting_balance: "50000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "2000" }, passing_criteria: { profit_target: "3000" } }
accounts: [ { alias: a, plan: p } ]
market:
  files: [ { path: ticks.csv, format: ticks, instrument: ESM6 } ]
steps:
  - at: 2026-03-10T10:00:00-05:00
`,
    );
    const out = join(dir, 'out');
    expect(runCli(['replay', join(dir, 'good.yaml'), '--out', out]).status).toBe(0);
    const before = readFileSync(join(out, 'good', 'events.jsonl'));
    const { status, stderr } = runCli([
      'replay',
      join(dir, 'good.yaml'),
      join(dir, 'bad-row.yaml'),
      '--out',
      out,
      '--seed',
      '7',
    ]);
    expect(stderr).toMatch(/ticks\.csv:3: column price: expected a decimal/);
    expect(status).toBe(2);
    expect(readdirSync(out), 'no staging folder is left').toEqual(['good']);
    expect(readFileSync(join(out, 'good', 'events.jsonl')).equals(before), 'the earlier run is untouched').toBe(true);
    const fresh = join(dir, 'fresh');
    expect(runCli(['replay', join(dir, 'good.yaml'), join(dir, 'bad-row.yaml'), '--out', fresh]).status).toBe(2);
    expect(existsSync(fresh), 'an --out folder made for the runs is removed').toBe(false);
  });

  it('Ctrl-C mid-run: exit 130, and what the runs were writing is removed (nothing is written)', async () => {
    const dir = tmp();
    const startMs = Date.parse('2026-03-10T14:30:00Z');
    const rows = Array.from({ length: 1_000_000 }, (_, i) => `${new Date(startMs + i * 10).toISOString()},5000.00`);
    writeFileSync(join(dir, 'ticks.csv'), `ts,price\n${rows.join('\n')}\n`);
    writeFileSync(
      join(dir, 'long.yaml'),
      FAILING.replace('name: wrong balance', 'name: long')
        .replace(/steps:\n[^]*$/, 'steps:\n  - at: 2026-03-10T15:00:00-05:00\n')
        .replace('accounts:', 'market:\n  files: [ { path: ticks.csv, format: ticks, instrument: ESM6 } ]\naccounts:'),
    );
    await expectInterrupted([join(dir, 'long.yaml')], join(dir, 'out'));
  });

  it('Ctrl-C during a run with no market file (no pause between its steps) is honoured too', async () => {
    // 500 accounts through a year of session rolls: one stretch of work that never waits, the Ctrl-C lands in it.
    const dir = tmp();
    const accounts = Array.from({ length: 500 }, (_, i) => `{ alias: a${i}, plan: p }`).join(', ');
    writeFileSync(
      join(dir, 'year.yaml'),
      FAILING.replace('name: wrong balance', 'name: year')
        .replace('accounts: [ { alias: a, plan: p } ]', `accounts: [ ${accounts} ]`)
        .replace(/steps:\n[^]*$/, 'steps:\n  - advance: 365d\n'),
    );
    await expectInterrupted([join(dir, 'year.yaml')], join(dir, 'out'));
  });

  it('Ctrl-C while the reports are drawn: exit 130, and no run is moved into place, not even one written in full', async () => {
    // Two runs: the first is written in full, then the second's state.json; its 24 charts of 100,000 prints are
    // being drawn when the Ctrl-C lands.
    const dir = tmp();
    const startMs = Date.parse('2026-03-10T14:30:00Z');
    const rows = Array.from(
      { length: 100_000 },
      (_, i) =>
        `${new Date(startMs + i * 10).toISOString()},${(5000 + Math.round(Math.sin(i / 5000) * 40) / 4).toFixed(2)}`,
    );
    writeFileSync(join(dir, 'es.csv'), `ts,price\n${rows.join('\n')}\n`);
    const aliases = Array.from({ length: 24 }, (_, i) => `a${i}`);
    writeFileSync(
      join(dir, 'charts.yaml'),
      FAILING.replace('name: wrong balance', 'name: charts')
        .replace(
          'accounts: [ { alias: a, plan: p } ]',
          `accounts: [ ${aliases.map((a) => `{ alias: ${a}, plan: p }`).join(', ')} ]`,
        )
        .replace(
          /steps:\n[^]*$/,
          `steps:\n${aliases.map((a, i) => `  - fill: { account: ${a}, instrument: ESM6, side: ${i % 2 ? 'sell' : 'buy'}, quantity: 1, price: "5000.00" }\n`).join('')}  - at: 2026-03-10T15:00:00-05:00\n`,
        )
        .replace('accounts:', 'market:\n  files: [ { path: es.csv, format: ticks, instrument: ESM6 } ]\naccounts:'),
    );
    writeFileSync(join(dir, 'first.yaml'), FAILING.replace('name: wrong balance', 'name: first'));
    const out = join(dir, 'out');
    const secondStaged = join(out, `.charts.partial-`);
    await expectInterrupted([join(dir, 'first.yaml'), join(dir, 'charts.yaml')], out, () => {
      const staging = entriesOf(out).find((name) => join(out, name).startsWith(secondStaged));
      return staging !== undefined && existsSync(join(out, staging, 'state.json'));
    });
  });

  it("removes a scenario's staging folders that a killed replay left behind, not those of a replay still running", () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'good.yaml'),
      FAILING.replace('name: wrong balance', 'name: good').replace(/ {2}- expect.*\n/, ''),
    );
    const out = join(dir, 'out');
    const gone = spawnSync(process.execPath, ['-e', '']).pid; // a process that has ended: as a replay killed with SIGKILL
    for (const pid of [gone, process.pid]) {
      mkdirSync(join(out, `.good.partial-${pid}`), { recursive: true });
      writeFileSync(join(out, `.good.partial-${pid}`, 'events.jsonl'), '{"seq":1}\n');
    }
    mkdirSync(join(out, `.other.partial-${gone}`));
    expect(runCli(['replay', join(dir, 'good.yaml'), '--out', out]).status).toBe(0);
    expect(readdirSync(out).sort()).toEqual([`.good.partial-${process.pid}`, `.other.partial-${gone}`, 'good']);
  });

  it('the same scenario and seed give the same events_sha256; another --seed changes it', () => {
    const sha = (args: string[]) =>
      JSON.parse(runCli(['replay', 'scenarios/stops-and-slippage.yaml', '--out', tmp(), '--json', ...args]).stdout)
        .events_sha256;
    expect(sha([])).toBe(sha([]));
    expect(sha(['--seed', '99'])).not.toBe(sha([]));
  });

  it('exits 1 when an expectation fails and names it', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'wrong.yaml'), FAILING);
    const { status, stdout } = runCli(['replay', join(dir, 'wrong.yaml'), '--out', join(dir, 'out')]);
    expect(status).toBe(1);
    expect(stdout).toContain('FAIL  wrong balance  (0/1 expectations held)');
    expect(stdout).toContain('step 2: account a balance: expected "50000", got "50050.00"');
  });

  it('a failed check on a REJECTED order says why on the console and in the --json record', () => {
    const dir = tmp();
    // 16:30 CT is in the daily halt, so the market order is REJECTED (market_closed) when it arrives.
    const rejected = FAILING.replace('2026-03-10T09:00:00-05:00', '2026-03-10T16:30:00-05:00').replace(
      /steps:[\s\S]*$/,
      'steps:\n  - order: { ref: o1, account: a, instrument: ESM6, side: buy, quantity: 1, type: market }\n  - expect: { order: o1, status: FILLED, filled_quantity: 0 }\n',
    );
    writeFileSync(join(dir, 'rejected.yaml'), rejected);
    const printed = runCli(['replay', join(dir, 'rejected.yaml'), '--out', join(dir, 'out')]);
    expect(printed.status).toBe(1);
    expect(printed.stdout, 'the failed line carries the error code and message').toContain(
      'step 1: order o1 status: expected "FILLED", got "REJECTED" (market_closed: the ESM6 market is closed)',
    );
    const doc = JSON.parse(runCli(['replay', join(dir, 'rejected.yaml'), '--out', join(dir, 'out'), '--json']).stdout);
    expect(doc.expectations[0], 'the failed record has the reason as its detail').toEqual({
      step: 1,
      passed: false,
      subject: 'order o1',
      field: 'status',
      expected: 'FILLED',
      actual: 'REJECTED',
      detail: 'market_closed: the ESM6 market is closed',
    });
    expect(doc.expectations[1], 'a check that held needs no reason').not.toHaveProperty('detail');
  });

  it('a failed check on another order gives its last status record: a modify that did not take says so', () => {
    const dir = tmp();
    // Half of a 2-lot limit fills at 09:00; a modify to 1 (not above the 1 filled) is refused at the venue, so the
    // order stays PARTIALLY_FILLED, and its last record says why.
    const modified = FAILING.replace(
      /steps:[\s\S]*$/,
      [
        'steps:',
        '  - order: { ref: o1, account: a, instrument: ESM6, side: buy, quantity: 2, type: limit, limit_price: "4999.00" }',
        '  - tick: { instrument: ESM6, price: "4999.00", size: 1 }',
        '  - modify: { ref: o1, quantity: 1 }',
        '  - expect: { order: o1, status: FILLED, filled_quantity: 1 }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'modified.yaml'), modified);
    const printed = runCli(['replay', join(dir, 'modified.yaml'), '--out', join(dir, 'out')]);
    expect(printed.status).toBe(1);
    expect(printed.stdout).toContain(
      'step 3: order o1 status: expected "FILLED", got "PARTIALLY_FILLED" (last status record PARTIALLY_FILLED: modify rejected: quantity 1 is not above the filled quantity 1)',
    );
    expect(printed.stdout).not.toContain('filled_quantity'); // the check that held is not listed
    // The report's expectations table has it too, in its detail column.
    const report = readFileSync(join(dir, 'out', 'wrong-balance', 'report.html'), 'utf8');
    expect(report).toContain(
      '<td>FAILED</td><td>last status record PARTIALLY_FILLED: modify rejected: quantity 1 is not above the filled quantity 1</td>',
    );
  });

  it('exits 2 on an invalid scenario, naming step, type and field, and writes nothing', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'bad.yaml'),
      FAILING.replace('quantity: 1, price: "5001.00"', 'quantity: 1.5, price: "5001.00"'),
    );
    const out = join(dir, 'out');
    const { status, stdout, stderr } = runCli([
      'replay',
      'scenarios/oco-bracket.yaml',
      join(dir, 'bad.yaml'),
      '--out',
      out,
    ]);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr, 'the message names the line and column of the value, then step, type and field').toMatch(
      /bad\.yaml:8:\d+: steps\[1\] \(fill\): quantity: expected .*integer/,
    );
    expect(existsSync(out), 'the valid scenario before it did not run either').toBe(false);
  });

  it('exits 2 for a YAML syntax error with its line', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'broken.yaml'), 'name: x\nstart: [\n');
    const { status, stderr } = runCli(['replay', join(dir, 'broken.yaml')]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/broken\.yaml:\d+:\d+: invalid YAML/);
  });
});

/** Sends Ctrl-C to a replay of `scenario` once its run has begun: exit 130, and `out` (made for it) is gone. */
/**
 * The names in a folder, none while it is missing. The command's check of --out makes the folder and removes it again
 * (out-folder.ts), so it can vanish between an existsSync and a readdirSync.
 */
function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Sends SIGINT to a replay of `scenarios` once `ready` (by default: its staging folder is there, the run has begun). */
async function expectInterrupted(
  scenarios: readonly string[],
  out: string,
  ready = () => entriesOf(out).length > 0,
): Promise<void> {
  const child = spawn(process.execPath, [CLI, 'replay', ...scenarios, '--out', out]);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  while (!ready()) await new Promise((r) => setTimeout(r, 2));
  child.kill('SIGINT');
  expect(await exited, stderr).toBe(130);
  expect(stderr).toContain('interrupted; nothing was written');
  expect(existsSync(out), 'the --out folder made for the run is removed with what it held').toBe(false);
}
