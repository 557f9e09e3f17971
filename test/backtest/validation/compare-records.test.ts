// The simulation against a firm's records (docs/backtesting.md#validation-against-the-firms-records): a records file
// read strictly, each trader's outcome and date compared, and the first divergence of a trader that parts, in words.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecordsFile } from '../../../src/backtest/validation/records-file.js';
import {
  compareWithRecords,
  summarizeValidation,
  type SimulatedTrader,
} from '../../../src/backtest/validation/compare-records.js';
import { divergenceWords, validationCsv } from '../../../src/reports/validation-outputs.js';

const folder = mkdtempSync(join(tmpdir(), 'propsim-records-'));
function records(text: string): string {
  const path = join(folder, `r${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, text);
  return path;
}

describe('the records file', () => {
  it('reads trader, outcome and date, and resets and payouts when given', () => {
    const path = records(
      'trader,outcome,date,resets,payouts_amount\nann,passed,2024-01-25,1,1250.50\nbob,open,,0,\ncy,failed,2024-01-09,,\n',
    );
    expect(readRecordsFile(path)).toEqual([
      { trader: 'ann', outcome: 'passed', date: '2024-01-25', resets: 1, payoutsCents: 125_050, line: 2 },
      { trader: 'bob', outcome: 'open', date: null, resets: 0, line: 3 },
      { trader: 'cy', outcome: 'failed', date: '2024-01-09', line: 4 },
    ]);
  });

  it('names the line and column of what it cannot read', () => {
    const bad = (text: string) => () => readRecordsFile(records(text));
    expect(bad('trader,outcome\nann,passed\n')).toThrow(
      /:1: expected a header with trader,outcome,date,\[resets\],\[payouts_amount\]/,
    );
    expect(bad('trader,outcome,date\nann,won,2024-01-02\n')).toThrow(
      /:2: column outcome: expected passed, failed, open, got "won"/,
    );
    expect(bad('trader,outcome,date\nann,passed,02/01/2024\n')).toThrow(
      /:2: column date: expected the trade date the evaluation passed on, YYYY-MM-DD/,
    );
    expect(bad('trader,outcome,date\nann,open,2024-01-05\n')).toThrow(
      /:2: column date: expected no date for an open evaluation/,
    );
    expect(bad('trader,outcome,date\nann,open,\nann,failed,2024-01-05\n')).toThrow(
      /:3: column trader: expected one row per trader \(ann is on line 2 too\)/,
    );
    expect(bad('trader,outcome,date,resets\nann,open,,-1\n')).toThrow(
      /:2: column resets: expected a whole number of resets ≥ 0/,
    );
    expect(bad('trader,outcome,date,notes\nann,open,,x\n')).toThrow(/:1: column notes: expected one of the columns/);
  });
});

/** A simulated trader; failures at 10:42 CT on their trade dates (16:42Z in January). */
function simulated(
  outcome: SimulatedTrader['outcome'],
  date: string | null,
  failedOn: string[] = [],
  extra = {},
): SimulatedTrader {
  return {
    trader: 'ann',
    outcome,
    date,
    resets: 0,
    payoutsCents: 0,
    failures: failedOn.map((d) => ({
      atMs: Date.parse(`${d}T16:42:00Z`),
      tradeDate: d,
      reason: 'equity 47980.00 at or below the max-loss trigger 48000.00',
    })),
    ...extra,
  };
}
const record = (outcome: 'passed' | 'failed' | 'open', date: string | null, extra = {}) => ({
  trader: 'ann',
  outcome,
  date,
  line: 2,
  ...extra,
});

describe('a trader against the records', () => {
  it('agrees when outcome and date agree, and then on resets and payouts when the records give them', () => {
    expect(
      compareWithRecords(record('failed', '2024-01-17'), simulated('failed', '2024-01-17', ['2024-01-17']), {
        resets: true,
      }),
    ).toEqual({
      trader: 'ann',
      actual: { outcome: 'failed', date: '2024-01-17' },
      simulated: { outcome: 'failed', date: '2024-01-17' },
      outcomeMatch: true,
      dateMatch: true,
    });
    const resets = compareWithRecords(
      record('passed', '2024-01-25', { resets: 2 }),
      simulated('passed', '2024-01-25', [], { resets: 1 }),
      { resets: true },
    );
    expect(divergenceWords(resets.divergence!)).toBe('outcome and date agree; resets: simulated 1, the records 2');
    const payouts = compareWithRecords(
      record('passed', '2024-01-25', { payoutsCents: 100_000 }),
      simulated('passed', '2024-01-25', [], { payoutsCents: 75_000 }),
      { resets: false },
    );
    expect(divergenceWords(payouts.divergence!)).toBe(
      'outcome and date agree; payouts: simulated $750.00, the records $1,000.00',
    );
  });

  it('a simulated failure before the recorded pass is where they part, with the time and the floor', () => {
    const row = compareWithRecords(record('passed', '2024-01-25'), simulated('failed', '2024-01-17', ['2024-01-17']), {
      resets: true,
    });
    expect([row.outcomeMatch, row.dateMatch]).toEqual([false, false]);
    expect(divergenceWords(row.divergence!)).toBe(
      'simulated floor crossed at 2024-01-17 10:42 CT at $47,980.00 (max-loss floor $48,000.00); the records say passed on 2024-01-25',
    );
  });

  it('a simulated failure by another rule names the rule and its reason, not a floor', () => {
    const row = compareWithRecords(
      record('passed', '2024-01-25'),
      {
        ...simulated('failed', '2024-01-19'),
        failures: [
          {
            atMs: Date.parse('2024-01-19T23:00:00Z'),
            tradeDate: '2024-01-22',
            reason: 'the time limit of 14 trade dates from 2024-01-02 ended without a pass',
            rule: 'time_limit',
          },
        ],
      },
      { resets: true },
    );
    expect(divergenceWords(row.divergence!)).toBe(
      'simulated time_limit at 2024-01-19 17:00 CT (the time limit of 14 trade dates from 2024-01-02 ended without a pass); the records say passed on 2024-01-25',
    );
  });

  it('a recorded outcome before the simulation decides: the records first, and what the simulation did', () => {
    const open = compareWithRecords(
      record('passed', '2024-01-25'),
      simulated('open', null, [], { unmet: 'profit_target_not_reached' }),
      { resets: true },
    );
    expect(divergenceWords(open.divergence!)).toBe(
      'the records say passed on 2024-01-25; the simulation was still open at the end (profit target not reached)',
    );
    const later = compareWithRecords(
      record('failed', '2024-01-10'),
      simulated('failed', '2024-01-17', ['2024-01-17']),
      { resets: true },
    );
    expect(later.outcomeMatch).toBe(true);
    expect(later.dateMatch).toBe(false);
    expect(divergenceWords(later.divergence!)).toBe(
      'the records say failed on 2024-01-10; the simulation failed later, on 2024-01-17',
    );
  });

  it('on one trade date a failure (during the session) comes before a pass (at the roll after it)', () => {
    const failFirst = compareWithRecords(
      record('passed', '2024-01-17'),
      simulated('failed', '2024-01-17', ['2024-01-17']),
      { resets: true },
    );
    expect(failFirst.divergence!.kind).toBe('simulated_failure');
    const recordFirst = compareWithRecords(record('failed', '2024-01-17'), simulated('passed', '2024-01-17'), {
      resets: true,
    });
    expect(recordFirst.divergence!.kind).toBe('recorded_first');
    const passFirst = compareWithRecords(record('open', null), simulated('passed', '2024-01-12'), { resets: true });
    expect(divergenceWords(passFirst.divergence!)).toBe(
      'simulated passed on 2024-01-12; the records say still open at the end of the period',
    );
  });

  it('sums up as agreement shares and a confusion of actual against simulated outcomes', () => {
    const rows = [
      compareWithRecords(record('failed', '2024-01-17'), simulated('failed', '2024-01-17', ['2024-01-17']), {
        resets: true,
      }),
      compareWithRecords(record('failed', '2024-01-10'), simulated('failed', '2024-01-17', ['2024-01-17']), {
        resets: true,
      }),
      compareWithRecords(record('passed', '2024-01-25'), simulated('open', null), { resets: true }),
      compareWithRecords(record('open', null), simulated('open', null), { resets: true }),
    ];
    expect(summarizeValidation(rows)).toEqual({
      traders: 4,
      outcomeAgreement: 0.75,
      dateAgreement: 0.5,
      confusion: {
        passed: { passed: 0, failed: 0, open: 1 },
        failed: { passed: 0, failed: 2, open: 0 },
        open: { passed: 0, failed: 0, open: 1 },
      },
    });
    expect(validationCsv(rows.slice(0, 2)).split('\n').slice(0, 3)).toEqual([
      'trader,actual_outcome,actual_date,simulated_outcome,simulated_date,outcome_match,date_match,first_divergence',
      'ann,failed,2024-01-17,failed,2024-01-17,true,true,',
      'ann,failed,2024-01-10,failed,2024-01-17,true,false,"the records say failed on 2024-01-10; the simulation failed later, on 2024-01-17"',
    ]);
  });
});
