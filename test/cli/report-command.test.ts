// `propsim report daily-positions` (docs/scenarios.md#propsim-report-daily-positions): records of a replay run folder
// as CSV, JSON and HTML; exit 2 with a message naming the problem, and nothing on stdout, for invalid input. Runs the
// compiled CLI.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// ES $50 a point, NQ $20 a point, commission 0; CT is UTC-5. Sessions close 16:00 CT.
//   Tue 03-10: long 2 ES at 5000, marked 5004 at the close: 2 x 4 x 50 = 400.00; NQ round trip +10 points = 200.00
//   Wed 03-11: sell 1 ES at 5010: +500.00; left long 1 at 5000, marked 5008: 400.00
//   Thu 03-12: no fill, held overnight, marked 4990: -500.00
const SCENARIO = `name: overnight hold
start: 2026-03-10T09:00:00-05:00
plans:
  p: { starting_balance: "50000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "5000" }, passing_criteria: { profit_target: "100000" } }
accounts: [ { alias: alice, plan: p }, { alias: bob, plan: p } ]
steps:
  - tick: { instrument: ESM6, price: "5000.00" }
  - fill: { account: alice, instrument: ESM6, side: buy, quantity: 2, price: "5000.00" }
  - fill: { account: alice, instrument: NQM6, side: buy, quantity: 1, price: "18000.00" }
  - fill: { account: alice, instrument: NQM6, side: sell, quantity: 1, price: "18010.00" }
  - at: 2026-03-10T15:00:00-05:00
  - tick: { instrument: ESM6, price: "5004.00" }
  - at: 2026-03-11T10:00:00-05:00
  - fill: { account: alice, instrument: ESM6, side: sell, quantity: 1, price: "5010.00" }
  - tick: { instrument: ESM6, price: "5008.00" }
  - at: 2026-03-12T09:00:00-05:00
  - tick: { instrument: ESM6, price: "4990.00" }
`;

// Commission 0: commissions 0.00 and net_realized_pnl equal to realized_pnl (the reconciliation is tested below).
const HEADER =
  'trade_date,instrument_id,net_quantity,average_price,realized_pnl,unrealized_pnl,commissions,net_realized_pnl';
const CSV = `${HEADER}
2026-03-10,ESM6,2,5000.00,0.00,400.00,0.00,0.00
2026-03-10,NQM6,0,,200.00,0.00,0.00,200.00
2026-03-11,ESM6,1,5000.00,500.00,400.00,0.00,500.00
2026-03-12,ESM6,1,5000.00,0.00,-500.00,0.00,0.00
`;

let out: string;
let run: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'propsim-report-'));
  writeFileSync(join(out, 'overnight.yaml'), SCENARIO);
  const replay = runCli(['replay', join(out, 'overnight.yaml'), '--out', join(out, 'runs')]);
  expect(replay.stderr).toBe('');
  expect(replay.status).toBe(0);
  run = join(out, 'runs', 'overnight-hold');
});

const report = (...args: string[]) => runCli(['report', 'daily-positions', ...args]);
const range = ['--from', '2026-03-09', '--to', '2026-03-13'];

describe('propsim report daily-positions', () => {
  it('prints CSV by default: one record per instrument and trade date, held overnight included', () => {
    const { status, stdout, stderr } = report('--run', run, '--account', 'alice', ...range);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toBe(CSV);
  });

  it('--format json is the API body {"items": [...]}; the account id works like the alias', () => {
    const state = JSON.parse(readFileSync(join(run, 'state.json'), 'utf8')) as {
      accounts: Array<{ alias: string; account_id: string }>;
    };
    const id = state.accounts.find((a) => a.alias === 'alice')!.account_id;
    const { status, stdout } = report('--run', run, '--account', id, ...range, '--format', 'json');
    expect(status).toBe(0);
    const doc = JSON.parse(stdout);
    expect(Object.keys(doc)).toEqual(['items']);
    expect(doc.items[1]).toEqual({
      trade_date: '2026-03-10',
      instrument_id: 'NQM6',
      net_quantity: 0,
      average_price: null,
      realized_pnl: '200.00',
      unrealized_pnl: '0.00',
      commissions: '0.00',
      net_realized_pnl: '200.00',
    });
    expect(
      doc.items.map((r: Record<string, unknown>) =>
        Object.values(r)
          .map((v) => v ?? '')
          .join(','),
      ),
    ).toEqual(CSV.trim().split('\n').slice(1));
  });

  it('--instrument and the range filter the records', () => {
    expect(report('--run', run, '--account', 'alice', ...range, '--instrument', 'NQM6').stdout).toBe(
      CSV.split('\n')
        .filter((l, i) => i === 0 || l.includes('NQM6'))
        .join('\n') + '\n',
    );
    const { stdout } = report('--run', run, '--account', 'alice', '--from', '2026-03-11', '--to', '2026-03-11');
    expect(stdout.trim().split('\n')).toEqual([HEADER, '2026-03-11,ESM6,1,5000.00,500.00,400.00,0.00,500.00']);
  });

  it('--format html is a static page with the records in a table', () => {
    const { status, stdout } = report('--run', run, '--account', 'alice', ...range, '--format', 'html');
    expect(status).toBe(0);
    expect(stdout.startsWith('<!doctype html>')).toBe(true);
    expect(stdout).toContain('<title>Daily positions: alice, 2026-03-09 to 2026-03-13</title>');
    expect(stdout).toContain(
      '<td>2026-03-12</td><td>ESM6</td><td>1</td><td>5000.00</td><td>0.00</td><td>-500.00</td><td>0.00</td><td>0.00</td>',
    );
    expect(stdout).toContain('<table data-figures="3 4 5 6 7 8">'); // the quantity and amounts right-aligned
    expect(stdout).toContain('scenario overnight hold');
  });

  it('an account without positions in the range: the header only, exit 0, a note on stderr', () => {
    const { status, stdout, stderr } = report('--run', run, '--account', 'bob', ...range);
    expect(status).toBe(0);
    expect(stdout).toBe(`${HEADER}\n`);
    expect(stderr).toContain('no records: account bob held or traded nothing on trade dates 2026-03-09 to 2026-03-13');
  });

  it('--help says daily positions need a replay run folder', () => {
    const { status, stdout } = report('--help');
    expect(status).toBe(0);
    expect(stdout).toContain('Daily positions need a replay run folder');
    expect(stdout).toContain('--format');
  });

  describe('invalid input: exit 2, a message naming the problem, nothing on stdout', () => {
    const refused = (args: string[], message: string | RegExp) => {
      const { status, stdout, stderr } = runCli(['report', ...args]);
      expect(stdout).toBe('');
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
    };

    it('a missing folder', () =>
      refused(
        ['daily-positions', '--run', join(out, 'nope'), '--account', 'alice', ...range],
        /--run .*nope: no such folder; daily positions need a replay run folder/,
      ));

    it('a folder without events.jsonl', () => {
      const empty = join(out, 'empty');
      mkdirSync(empty, { recursive: true });
      refused(
        ['daily-positions', '--run', empty, '--account', 'alice', ...range],
        /no events\.jsonl; daily positions need a replay run folder/,
      );
    });

    it('a back-test output folder', () => {
      const backtest = join(out, 'backtest');
      mkdirSync(backtest, { recursive: true });
      writeFileSync(join(backtest, 'cells.csv'), 'cell\n');
      writeFileSync(join(backtest, 'summary.json'), '{}\n');
      refused(
        ['daily-positions', '--run', backtest, '--account', 'alice', ...range],
        /back-test output folder .*no per-fill data; daily positions need a replay run folder/,
      );
    });

    it('the replay --out folder instead of one run in it', () =>
      refused(
        ['daily-positions', '--run', join(out, 'runs'), '--account', 'alice', ...range],
        /holds replay runs \(overnight-hold\): pass one of them/,
      ));

    it('an unknown account, listing the known aliases', () =>
      refused(
        ['daily-positions', '--run', run, '--account', 'carol', ...range],
        /--account carol: no such account .*known aliases: alice, bob$/m,
      ));

    it('a date not YYYY-MM-DD', () => {
      refused(
        ['daily-positions', '--run', run, '--account', 'alice', '--from', '2026-3-9', '--to', '2026-03-13'],
        /--from: expected a trade date written YYYY-MM-DD, got "2026-3-9"/,
      );
      refused(
        ['daily-positions', '--run', run, '--account', 'alice', '--from', '2026-03-09', '--to', '2026-02-30'],
        /--to: expected a trade date written YYYY-MM-DD, got "2026-02-30"/,
      );
    });

    it('an inverted range', () =>
      refused(
        ['daily-positions', '--run', run, '--account', 'alice', '--from', '2026-03-13', '--to', '2026-03-09'],
        /--from 2026-03-13 is after --to 2026-03-09/,
      ));

    it('an unknown format', () =>
      refused(
        ['daily-positions', '--run', run, '--account', 'alice', ...range, '--format', 'xml'],
        /Argument: format, Given: "xml", Choices: "csv", "json", "html"/,
      ));

    it('an unknown instrument', () =>
      refused(
        ['daily-positions', '--run', run, '--account', 'alice', ...range, '--instrument', 'XXM6'],
        /--instrument: instrument "XXM6": unknown root/,
      ));

    it('a missing required option', () =>
      refused(['daily-positions', '--run', run, ...range], /Missing required argument: account/));

    it('an unknown report', () => refused(['weekly-positions'], /Unknown argument: weekly-positions/));

    it('a journal that is not JSON lines', () => {
      const broken = join(out, 'broken');
      mkdirSync(broken, { recursive: true });
      writeFileSync(
        join(broken, 'events.jsonl'),
        '{"seq":1,"time_ms":0,"type":"input.advance","data":{"to":0}}\nnot json\n',
      );
      refused(
        ['daily-positions', '--run', broken, '--account', 'alice', ...range],
        /events\.jsonl: line 2 is not JSON/,
      );
    });
  });
});

// docs/scenarios.md#the-journal: the journal names the market file (path, bytes, sha256), and the report reads it
// again. ES $50 a point: long 1 at 5000.00; the 03-10 close marks at the 15:30 print 5006.00 = 300.00; the run stops
// at 03-11 12:00 CT inside that session, marked at the 09:30 print 5012.00 = 600.00. The 03-09 print is before the
// start: consumed, not applied.
describe('propsim report daily-positions of a run whose journal references its market file', () => {
  const TICKS = `ts,price
2026-03-09T10:00:00-05:00,4990.00
2026-03-10T09:30:00-05:00,5000.00
2026-03-10T15:30:00-05:00,5006.00
2026-03-11T09:30:00-05:00,5012.00
`;
  const MARKET_SCENARIO = `name: market by reference
start: 2026-03-10T09:00:00-05:00
plans:
  p: { starting_balance: "50000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "5000" }, passing_criteria: { profit_target: "100000" } }
accounts: [ { alias: alice, plan: p } ]
market:
  files: [ { path: data/ticks.csv, format: ticks, instrument: ESM6 } ]
steps:
  - at: 2026-03-10T09:45:00-05:00
  - fill: { account: alice, instrument: ESM6, side: buy, quantity: 1, price: "5000.00" }
  - at: 2026-03-11T12:00:00-05:00
`;
  const RECORDS = `${HEADER}
2026-03-10,ESM6,1,5000.00,0.00,300.00,0.00,0.00
2026-03-11,ESM6,1,5000.00,0.00,600.00,0.00,0.00
`;
  let folder: string;
  let marketRun: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'propsim-report-market-'));
    mkdirSync(join(folder, 'scenario', 'data'), { recursive: true });
    writeFileSync(join(folder, 'scenario', 'data', 'ticks.csv'), TICKS);
    writeFileSync(join(folder, 'scenario', 'market.yaml'), MARKET_SCENARIO);
    const replay = runCli(['replay', join(folder, 'scenario', 'market.yaml'), '--out', join(folder, 'runs')]);
    expect(replay.stderr).toBe('');
    expect(replay.status).toBe(0);
    marketRun = join(folder, 'runs', 'market-by-reference');
  });

  it('the journal names the file once and records ranges of its prints, not a line per print', () => {
    const lines = readFileSync(join(marketRun, 'events.jsonl'), 'utf8').trim().split('\n');
    const types = lines.map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).not.toContain('input.print');
    const files = lines.map((line) => JSON.parse(line)).find((e) => e.type === 'input.market_files');
    expect(files.data.files).toEqual([
      {
        path: 'data/ticks.csv',
        format: 'ticks',
        instrument: 'ESM6',
        bytes: Buffer.byteLength(TICKS),
        sha256: createHash('sha256').update(TICKS).digest('hex'),
      },
    ]);
    const ranges = lines
      .map((line) => JSON.parse(line))
      .filter((e) => e.type === 'input.market_prints')
      .map((e) => e.data);
    expect(ranges).toEqual([
      { from: 0, to: 2 }, // 03-09 (before the start: consumed, not applied) and 03-10 09:30, before the step to 09:45
      { from: 2, to: 3 }, // 03-10 15:30, before the 17:00 CT session roll
      { from: 3, to: 4 }, // 03-11 09:30, before the clock step to 12:00
    ]);
  });

  it('reads the market file again from the scenario folder for the marks at each close', () => {
    const { status, stdout, stderr } = report('--run', marketRun, '--account', 'alice', ...range);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toBe(RECORDS);
  });

  it('a moved scenario folder: refused with a hint, then read from --market-dir', () => {
    const moved = join(folder, 'moved');
    renameSync(join(folder, 'scenario'), moved);
    try {
      const refusal = report('--run', marketRun, '--account', 'alice', ...range);
      expect(refusal.stdout).toBe('');
      expect(refusal.status).toBe(2);
      expect(refusal.stderr).toMatch(/market file data\/ticks\.csv: not found .*pass --market-dir/);
      const { status, stdout } = report('--run', marketRun, '--account', 'alice', ...range, '--market-dir', moved);
      expect(status).toBe(0);
      expect(stdout).toBe(RECORDS);
    } finally {
      renameSync(moved, join(folder, 'scenario'));
    }
  });

  it('a market file changed since the run: exit 2, naming the file and both fingerprints', () => {
    const file = join(folder, 'scenario', 'data', 'ticks.csv');
    writeFileSync(file, TICKS.replace('5012.00', '5013.00'));
    try {
      const { status, stdout, stderr } = report('--run', marketRun, '--account', 'alice', ...range);
      expect(stdout).toBe('');
      expect(status).toBe(2);
      expect(stderr).toContain(`market file ${file} has changed since the run`);
      expect(stderr).toContain(createHash('sha256').update(TICKS).digest('hex'));
    } finally {
      writeFileSync(file, TICKS);
    }
  });
});

describe('propsim report daily-positions --help examples', () => {
  it('name run folders that `npm run demo` writes (reports/demo/<scenario>), and work there', () => {
    const help = report('--help').stdout;
    // An example's command line, joined back from its `\`-continued lines.
    const examples = help
      .replace(/ \\\n\s+/g, ' ')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('propsim report daily-positions --run'));
    expect(examples.length).toBeGreaterThan(0);
    // The demo replays every file of scenarios/ into reports/demo/<slug of its name> (src/demo/scenario-demo.ts).
    const cwd = mkdtempSync(join(tmpdir(), 'propsim-help-examples-'));
    for (const example of examples) {
      const args = example.split(' ').slice(1);
      const run = args[args.indexOf('--run') + 1]!;
      expect(run).toMatch(/^reports\/demo\/[a-z0-9-]+$/);
      const scenario = run.replace('reports/demo/', '');
      const file = join('scenarios', `${scenario}.yaml`);
      const replay = runCli(['replay', file, '--out', join(cwd, 'reports', 'demo')]);
      expect(replay.status, `${file}: ${replay.stderr}`).toBe(0);
      const result = runCli(args, undefined, { cwd });
      expect(result.stderr, example).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/commissions|net_realized_pnl/);
    }
  });
});
