// The doc examples `npm run docs:examples` writes: each runs the built CLI the way the doc shows and returns
// the block that goes between its markers. Fast ones are checked by test/docs/doc-examples.test.ts on every
// test run; a slow one (a month-long back-test) only runs with --slow, and its doc text says so.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/market/holiday-file.js';
import { formatUsd } from '../../src/reports/usd.js';
import type { PropsimRun, Scratch } from './run-propsim.js';
import { noiseSweepFigures, tradersNeededFigures } from './noise-figures.js';

export interface DocExample {
  id: string;
  /** Too long for the test suite: only `npm run docs:examples -- --slow` renders it. */
  slow?: boolean;
  /** Runs in a scratch folder of its own, shown as /tmp. */
  render(scratch: Scratch): Promise<string>;
}

function fenced(lang: string, body: string): string {
  return `\`\`\`${lang}\n${body.replace(/\n+$/, '')}\n\`\`\`\n`;
}

/** Shell-session lines: each command after `$ `, then what it printed. */
function session(steps: Array<{ command: string; output: string }>): string {
  return steps.map((s) => `$ ${s.command}\n${s.output.replace(/\n+$/, '')}`).join('\n\n');
}

function expectStatus(run: PropsimRun, status: number, what: string): PropsimRun {
  if (run.status !== status)
    throw new Error(`docs example ${what}: expected exit ${status}, got ${run.status}\n${run.stderr}`);
  return run;
}

function packageFile(...parts: string[]): string {
  return readFileSync(join(packageRoot(), ...parts), 'utf8');
}

/** A scenario with one expected value changed, written into the scratch folder's broken/. */
function brokenCopy(scratch: Scratch, scenario: string, from: string, to: string): string {
  const text = packageFile('scenarios', scenario);
  if (!text.includes(from)) throw new Error(`docs example: ${scenario} no longer holds ${from}`);
  mkdirSync(scratch.path('broken'), { recursive: true });
  const path = scratch.path('broken', scenario);
  writeFileSync(path, text.replace(from, to));
  return path;
}

/** One JSON value on one line with spaces after `:` and `,`, as the docs write short records. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[ ${value.map(inline).join(', ')} ]`;
  if (value !== null && typeof value === 'object') {
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`)
      .join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** An id shortened for a doc line: its first group and an ellipsis. */
const shortId = (id: unknown) => `${String(id).split('-')[0]}-…`;

const REJECTED_SCENARIO = `name: rejected order
start: 2026-03-10T16:30:00-05:00    # 16:30 CT: the daily halt
accounts: [ { alias: a, plan: eval-50k-eod } ]
steps:
  - order: { ref: o1, account: a, instrument: ESM6, side: buy, quantity: 1, type: market }
  - expect: { order: o1, status: FILLED }
`;

export const DOC_EXAMPLES: readonly DocExample[] = [
  {
    id: 'readme-calendar',
    async render(scratch) {
      const times = ['2026-03-08T17:00:00-05:00', '2024-01-15T12:00:00-06:00'];
      const [table, json] = await Promise.all([
        scratch.propsim(['calendar', ...times]),
        scratch.propsim(['calendar', '--instrument', '6E', '--json'], '2024-01-01T10:00:00Z\n'),
      ]);
      return fenced(
        'sh',
        session([
          { command: `npx propsim calendar ${times.join(' ')}`, output: expectStatus(table, 0, 'calendar').stdout },
          {
            command: 'echo 2024-01-01T10:00:00Z | npx propsim calendar --instrument 6E --json',
            output: expectStatus(json, 0, 'calendar --json').stdout,
          },
        ]),
      );
    },
  },
  {
    id: 'readme-replay',
    async render(scratch) {
      const files = ['scenarios/oco-bracket.yaml', 'scenarios/time-in-force.yaml'];
      const both = expectStatus(
        await scratch.propsim(['replay', ...files, '--out', scratch.path('replay')]),
        0,
        'replay',
      );
      const one = expectStatus(
        await scratch.propsim(['replay', files[0]!, '--out', scratch.path('replay'), '--json']),
        0,
        'replay --json',
      );
      const doc = JSON.parse(one.stdout) as Record<string, unknown>;
      return fenced(
        'sh',
        session([
          { command: `npx propsim replay ${files.join(' ')} --out /tmp/replay`, output: both.stdout },
          {
            command: `npx propsim replay ${files[0]} --out /tmp/replay --json | jq -c '{scenario, passed, events_sha256}'`,
            output: JSON.stringify({ scenario: doc.scenario, passed: doc.passed, events_sha256: doc.events_sha256 }),
          },
        ]),
      );
    },
  },
  {
    id: 'scenarios-validation-errors',
    async render(scratch) {
      const unquoted = brokenCopy(scratch, 'oco-bracket.yaml', 'limit_price: "5010.00"', 'limit_price: 5010.00');
      const moved = scratch.path('broken', 'real-6e-bars.yaml');
      copyFileSync(join(packageRoot(), 'scenarios', 'real-6e-bars.yaml'), moved);
      const [a, b] = await Promise.all([scratch.propsim(['replay', unquoted]), scratch.propsim(['replay', moved])]);
      return fenced(
        'text',
        session([
          {
            command: `npx propsim replay ${scratch.shown(unquoted)}        # oco-bracket.yaml with limit_price: 5010.00 (unquoted)`,
            output: expectStatus(a, 2, 'unquoted price').stderr,
          },
          {
            command: `npx propsim replay ${scratch.shown(moved)}        # copied away from fixtures/`,
            output: expectStatus(b, 2, 'moved scenario').stderr,
          },
        ]),
      );
    },
  },
  {
    id: 'scenarios-console',
    async render(scratch) {
      const broken = brokenCopy(
        scratch,
        'limit-order-partial-fills.yaml',
        'balance: "50360.00"',
        'balance: "50360.01"',
      );
      const run = expectStatus(
        await scratch.propsim(['replay', 'scenarios/oco-bracket.yaml', broken, '--out', scratch.path('replay')]),
        1,
        'a failed expectation',
      );
      return fenced(
        'text',
        session([
          {
            command: `npx propsim replay scenarios/oco-bracket.yaml ${scratch.shown(broken)} --out /tmp/replay   # one balance changed to "50360.01"`,
            output: run.stdout,
          },
        ]),
      );
    },
  },
  {
    id: 'scenarios-rejected',
    async render(scratch) {
      const file = scratch.path('rejected.yaml');
      writeFileSync(file, REJECTED_SCENARIO);
      const run = expectStatus(
        await scratch.propsim(['replay', file, '--out', scratch.path('replay')]),
        1,
        'a rejected order',
      );
      return `${fenced('yaml', REJECTED_SCENARIO)}\n${fenced('text', session([{ command: 'npx propsim replay /tmp/rejected.yaml --out /tmp/replay', output: run.stdout }]))}`;
    },
  },
  {
    id: 'scenarios-json',
    async render(scratch) {
      const run = expectStatus(
        await scratch.propsim(['replay', 'scenarios/oco-bracket.yaml', '--out', scratch.path('replay'), '--json']),
        0,
        'replay --json',
      );
      const doc = JSON.parse(run.stdout) as {
        scenario: string;
        passed: boolean;
        expectations: Array<Record<string, unknown>>;
        events_sha256: string;
        final: { accounts: Array<Record<string, unknown>>; orders: Array<Record<string, unknown>> };
      };
      const refused = doc.expectations.filter((e) => e.detail !== undefined);
      const account = doc.final.accounts[0]!;
      const stop = doc.final.orders.find((o) => o.type === 'stop')!;
      const accountShown = {
        alias: account.alias,
        account_id: shortId(account.account_id),
        starting_balance: account.starting_balance,
        balance: account.balance,
        equity: account.equity,
        '…': '…',
      };
      const stopShown = {
        order_id: shortId(stop.order_id),
        type: stop.type,
        status: stop.status,
        oco_group_id: shortId(stop.oco_group_id),
        '…': '…',
      };
      const states = (stop.states as unknown[]).map(inline).join(',\n                              ');
      return fenced(
        'json',
        [
          '{',
          `  "scenario": ${JSON.stringify(doc.scenario)},`,
          `  "passed": ${JSON.stringify(doc.passed)},`,
          '  "expectations": [',
          `    ${[doc.expectations[1]!, ...refused].map(inline).join(',\n    ')}`,
          '  ],',
          `  "events_sha256": ${JSON.stringify(doc.events_sha256)},`,
          '  "final": {',
          `    "accounts": [ ${inline(accountShown)} ],`,
          `    "orders": [ ${inline(stopShown).replace(/ \}$/, ',')}`,
          `                  "states": [ ${states} ] } ]`,
          '  }',
          '}',
        ].join('\n'),
      );
    },
  },
  {
    id: 'scenarios-daily-positions',
    async render(scratch) {
      expectStatus(
        await scratch.propsim(['replay', 'scenarios/eod-trailing-week.yaml', '--out', scratch.path('reports')]),
        0,
        'replay',
      );
      const args = ['--account', 'eve', '--from', '2026-03-12', '--to', '2026-03-18'];
      const run = expectStatus(
        await scratch.propsim([
          'report',
          'daily-positions',
          '--run',
          scratch.path('reports', 'eod-trailing-week'),
          ...args,
        ]),
        0,
        'daily positions',
      );
      return fenced(
        'text',
        session([
          {
            command: `npx propsim report daily-positions --run reports/eod-trailing-week ${args.join(' ')}`,
            output: run.stdout,
          },
        ]),
      );
    },
  },
  {
    id: 'calendar-json',
    async render(scratch) {
      const run = expectStatus(
        await scratch.propsim(['calendar', '2026-03-08T17:00:00-05:00', '--json']),
        0,
        'calendar --json',
      );
      return fenced(
        'sh',
        session([{ command: 'npx propsim calendar 2026-03-08T17:00:00-05:00 --json', output: run.stdout }]),
      );
    },
  },
  {
    id: 'backtesting-hand-checked',
    async render(scratch) {
      const out = scratch.path('hand-checked');
      expectStatus(
        await scratch.propsim([
          'backtest',
          '--config',
          'test/backtest/fixtures/hand-checked.yaml',
          '--out',
          out,
          '--workers',
          '1',
        ]),
        0,
        'hand-checked back-test',
      );
      return fenced('', readFileSync(join(out, 'cells.csv'), 'utf8'));
    },
  },
  { id: 'backtesting-noise-sweep', render: noiseSweepFigures },
  { id: 'backtesting-traders-needed', render: tradersNeededFigures },
  {
    id: 'backtesting-question-config',
    async render() {
      return fenced('yaml', packageFile('fixtures', 'backtest', 'eod-vs-intraday.yaml'));
    },
  },
  {
    id: 'backtesting-question-figures',
    slow: true,
    async render(scratch) {
      const out = scratch.path('question');
      const startMs = performance.now();
      expectStatus(
        await scratch.propsim([
          'backtest',
          '--config',
          'fixtures/backtest/eod-vs-intraday.yaml',
          '--out',
          out,
          '--workers',
          '2',
        ]),
        0,
        'the question back-test',
      );
      const seconds = Math.round((performance.now() - startMs) / 1000);
      return questionFigures(
        readFileSync(join(out, 'cells.csv'), 'utf8'),
        JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')),
        seconds,
      );
    },
  },
];

interface SummaryCell {
  cell: number;
  passed: number;
  failed_max_loss: number;
  daily_lock_days: number;
  payouts: string;
  net: string;
  causes: Record<string, number>;
}

/** The worked question's table and reading, from its cells.csv and summary.json. */
function questionFigures(cellsCsv: string, summary: { cells: SummaryCell[] }, seconds: number): string {
  const [header, ...rows] = cellsCsv.trimEnd().split('\n');
  const shortHeader = header!
    .replace('risk_profile.max_drawdown_mode', '…mode')
    .replace('risk_profile.max_drawdown_value', '…value')
    .replace('risk_profile.daily_loss_value', '…daily');
  const cell = (i: number) => summary.cells[i]!;
  const [today, proposal] = [cell(0), cell(7)];
  const cents = (s: string) => Math.round(Number(s) * 100);
  const fewer = (a: number, b: number, what: string) =>
    (a > b ? `${a - b} fewer` : a < b ? `${b - a} more` : `as many`) + ` ${what}`;
  const short = (c: SummaryCell) => c.causes.profit_target_not_reached ?? 0;
  const payoutChange = cents(today.payouts) - cents(proposal.payouts);
  return [
    `Its \`cells.csv\` (${seconds} s on 2 workers when this was written), reduced to the two plans in the question (header shortened):`,
    '',
    fenced('', [shortHeader, rows[0], rows[7]].join('\n')).trimEnd(),
    '',
    `Read it as: under the proposal, ${fewer(today.failed_max_loss, proposal.failed_max_loss, 'of the 240 accounts fail on max loss')} (${proposal.failed_max_loss} against ${today.failed_max_loss}),`,
    `${fewer(today.passed, proposal.passed, 'pass')} (${proposal.passed} against ${today.passed}), the daily limit locks accounts on ${proposal.daily_lock_days} account-days, and payouts`,
    `${payoutChange >= 0 ? 'fall' : 'rise'} by ${formatUsd(Math.abs(payoutChange))}, so the firm's net goes from ${formatUsd(cents(today.net))} to ${formatUsd(cents(proposal.net))}. \`summary.json\` splits the rest`,
    `by cause (cell 0: ${short(today)} still short of the profit target and ${today.causes.consistency_not_met ?? 0} held back by the consistency rule; cell 7:`,
    `${short(proposal)} and ${proposal.causes.consistency_not_met ?? 0}). The cells in between say which change does what: the intraday mode alone (cell 4) fails`,
    `${cell(4).failed_max_loss}, the larger allowance (cells 2 and 6) fails ${cell(2).failed_max_loss} and ${cell(6).failed_max_loss}, and the daily limit (cell 6 → 7) turns`,
    `${cell(6).failed_max_loss - proposal.failed_max_loss} failures into ${short(proposal) - short(cell(6))} more accounts short of the target.`,
    '',
  ].join('\n');
}
