// market.resample (docs/backtesting.md#long-horizons-a-resampled-tape): whole real sessions laid on the period's trade
// dates in blocks, each block's prices shifted to open where the previous one closed, contracts rolled on the period's
// dates, a session cut at an early close. Worked by hand over ES ticks written here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBacktestConfig } from '../../../src/backtest/config/backtest-config.js';
import { runBacktest } from '../../../src/backtest/run-backtest.js';
import { periodSessions } from '../../../src/backtest/config/trader-roster.js';
import { checkPeriodCoverage } from '../../../src/backtest/config/period-coverage.js';
import { drawBlocks } from '../../../src/backtest/tape/block-draw.js';
import { resampledPrintBatches } from '../../../src/backtest/tape/resampled-prints.js';
import { readSourceTape } from '../../../src/backtest/tape/source-sessions.js';
import { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';
import { backtestOutputFiles } from '../../../src/reports/backtest-outputs.js';

const calendar = new GlobexCalendar(loadHolidayFile());
const folder = mkdtempSync(join(tmpdir(), 'propsim-tape-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// ES trade date D's session runs from 17:00 CT the day before to 16:00 CT on D: 22:00Z to 21:00Z in April (CDT).
const TICKS = [
  'ts,instrument,price,size',
  // 2024-04-01: first print at 15:30 CT, far from its open: not whole.
  '2024-04-01T20:30:00Z,ESM4,5001.00,1',
  // 2024-04-02: whole; ESM4 prints three times, ESU4 once: ESM4 stands for ES.
  '2024-04-01T22:00:00Z,ESM4,5000.00,2',
  '2024-04-02T14:30:00Z,ESM4,5010.00,3',
  '2024-04-02T15:00:00Z,ESU4,5060.00,1',
  '2024-04-02T20:59:00Z,ESM4,5005.00,4',
  // 2024-04-03: whole.
  '2024-04-02T22:00:00Z,ESM4,5006.00,5',
  '2024-04-03T15:00:00Z,ESM4,4990.00,6',
  '2024-04-03T20:30:00Z,ESM4,4995.00,7',
  // 2024-04-04: the file ends at 21:00 CT the evening before: not whole.
  '2024-04-03T22:00:00Z,ESM4,4996.00,1',
  '2024-04-04T02:00:00Z,ESM4,4997.00,1',
  // 2024-05-27, Memorial Day: ES halts at 12:00 CT, a session of other hours: not whole, however it prints.
  '2024-05-26T22:00:00Z,ESM4,5300.00,1',
  '2024-05-27T16:30:00Z,ESM4,5310.00,1',
];
const ticksFile = join(folder, 'es-ticks.csv');
writeFileSync(ticksFile, TICKS.join('\n') + '\n');
const FILES = [{ path: ticksFile, format: 'ticks' as const }];
// The same without ESU4's print, for a file of one contract named by its instrument key.
const esm4File = join(folder, 'esm4-ticks.csv');
writeFileSync(esm4File, TICKS.filter((row) => !row.includes('ESU4')).join('\n') + '\n');
const ES_TICK = 4; // ticks per point

describe('market.resample: the real sessions drawn from', () => {
  it('whole sessions only: full hours by the calendar, printing within the first and the last hour', async () => {
    const tape = await readSourceTape(FILES, calendar, 'equity_index');
    expect(tape.sessions.map((s) => s.tradeDate)).toEqual([
      '2024-04-01',
      '2024-04-02',
      '2024-04-03',
      '2024-04-04',
      '2024-05-27',
    ]);
    expect(tape.whole.map((s) => s.tradeDate)).toEqual(['2024-04-02', '2024-04-03']);
    expect(tape.roots).toEqual(['ES']);
  });

  it('blocks start uniformly among the places a whole block fits, laid end to end; the last one cut at the period end', () => {
    const blocks = drawBlocks(10, 12, 5, 7);
    expect(blocks.map((b) => [b.at, b.length])).toEqual([
      [0, 5],
      [5, 5],
      [10, 2],
    ]);
    for (const b of blocks) expect(b.source >= 0 && b.source <= 5, `block at ${b.at} starts at ${b.source}`).toBe(true);
    expect(drawBlocks(10, 12, 5, 7), 'the same seed, the same tape').toEqual(blocks);
    const starts = new Set(Array.from({ length: 40 }, (_, seed) => drawBlocks(10, 5, 5, seed)[0]!.source));
    expect([...starts].sort(), 'every place is drawn over 40 seeds').toEqual([0, 1, 2, 3, 4, 5]);
    expect(() => drawBlocks(4, 12, 5, 7)).toThrow('a block of 5 sessions needs as many whole sessions; there are 4');
  });
});

describe('market.resample: the tape laid on the period, worked by hand', () => {
  // Two whole sessions and blocks of 2: every block is the pair 04-02, 04-03. The period 2024-06-12 to 06-19 has six
  // sessions (06-12, 13, 14, 17, 18, 19): three blocks. ES rolls from ESM4 to ESU4 on Thursday 06-13 (eight days
  // before the 06-21 expiry); 06-19, Juneteenth, halts at 12:00 CT (17:00Z).
  it('times keep their distance from the open; each block opens where the previous closed; contracts roll; an early close cuts', async () => {
    const tape = await readSourceTape(FILES, calendar, 'equity_index');
    const period = periodSessions(calendar, { from: '2024-06-12', to: '2024-06-19' }, 'equity_index');
    const blocks = drawBlocks(tape.whole.length, period.length, 2, 11);
    expect(blocks).toEqual([
      { at: 0, source: 0, length: 2 },
      { at: 2, source: 0, length: 2 },
      { at: 4, source: 0, length: 2 },
    ]);
    const prints: string[] = [];
    for (const batch of resampledPrintBatches(tape, blocks, period))
      for (let i = 0; i < batch.length; i++)
        prints.push(
          `${new Date(batch.timeMs[i]!).toISOString()} ${batch.symbols.symbol(batch.instrumentIndex[i]!)} ${(batch.priceTicks[i]! / ES_TICK).toFixed(2)} ${batch.size[i]}`,
        );
    expect(prints).toEqual([
      // block 1, 06-12 (04-02 as it traded; ESU4's print is not ES's contract that session): offset 0
      '2024-06-11T22:00:00.000Z ESM4 5000.00 2',
      '2024-06-12T14:30:00.000Z ESM4 5010.00 3',
      '2024-06-12T20:59:00.000Z ESM4 5005.00 4',
      // 06-13 (04-03): same block, same real contract, no shift; the roll names it ESU4
      '2024-06-12T22:00:00.000Z ESU4 5006.00 5',
      '2024-06-13T15:00:00.000Z ESU4 4990.00 6',
      '2024-06-13T20:30:00.000Z ESU4 4995.00 7',
      // block 2, 06-14 (04-02): opens at the last price laid, 4995.00: offset 4995.00 − 5000.00 = −5.00
      '2024-06-13T22:00:00.000Z ESU4 4995.00 2',
      '2024-06-14T14:30:00.000Z ESU4 5005.00 3',
      '2024-06-14T20:59:00.000Z ESU4 5000.00 4',
      // 06-17, a Monday: its session opens Sunday 06-16 17:00 CT (04-03, offset −5.00)
      '2024-06-16T22:00:00.000Z ESU4 5001.00 5',
      '2024-06-17T15:00:00.000Z ESU4 4985.00 6',
      '2024-06-17T20:30:00.000Z ESU4 4990.00 7',
      // block 3, 06-18 (04-02): offset 4990.00 − 5000.00 = −10.00
      '2024-06-17T22:00:00.000Z ESU4 4990.00 2',
      '2024-06-18T14:30:00.000Z ESU4 5000.00 3',
      '2024-06-18T20:59:00.000Z ESU4 4995.00 4',
      // 06-19 (04-03, offset −10.00): cut at the 17:00Z halt, so 04-03's 20:30Z print has no place
      '2024-06-18T22:00:00.000Z ESU4 4996.00 5',
      '2024-06-19T15:00:00.000Z ESU4 4980.00 6',
    ]);
  });
});

describe('market.resample over the bundled 6E bars', () => {
  it('each bar keeps its open/high/low/close relations and volumes, shifted on the tick grid', async () => {
    const files = [
      { path: join(process.cwd(), 'fixtures/market/6EH4-2024-01.csv.gz'), format: 'bars' as const, instrument: '6EH4' },
    ];
    const tape = await readSourceTape(files, calendar, 'fx');
    expect(tape.whole.length, 'every trade date of January 2024').toBe(22);
    const period = periodSessions(calendar, { from: '2024-01-02', to: '2024-06-28' }, 'fx');
    const blocks = drawBlocks(tape.whole.length, period.length, 5, 11);
    // A bar's four prints share its source line: the real prices and sizes of each line, as read.
    const real = new Map<number, Array<[number, number]>>();
    for (let row = 0; row < tape.timeMs.length; row++)
      real.set(tape.line[row]!, [...(real.get(tape.line[row]!) ?? []), [tape.priceTicks[row]!, tape.size[row]!]]);
    let bars = 0;
    let shifted = 0;
    const misshapen: string[] = [];
    let laid: Array<[number, number, number]> = [];
    const check = () => {
      const source = real.get(laid[0]![0])!;
      const offset = laid[0]![1] - source[0]![0];
      const same = laid.every(([, price, size], k) => price - offset === source[k]![0] && size === source[k]![1]);
      if (!same || !Number.isInteger(offset)) misshapen.push(`line ${laid[0]![0]}`);
      bars++;
      if (offset !== 0) shifted++;
    };
    for (const batch of resampledPrintBatches(tape, blocks, period))
      for (let i = 0; i < batch.length; i++) {
        if (laid.length > 0 && laid[0]![0] !== batch.line[i]) {
          check();
          laid = [];
        }
        laid.push([batch.line[i]!, batch.priceTicks[i]!, batch.size[i]!]);
      }
    check();
    expect(misshapen, 'bars whose prints moved apart, or off the tick grid').toEqual([]);
    expect(bars).toBeGreaterThan(100_000);
    expect(shifted, 'most blocks are shifted').toBeGreaterThan(bars / 2);
  });

  it('two roots take the same real sessions, each continuing from its own last price', async () => {
    const rows = ['ts,instrument,price,size'];
    // Two whole ES/NQ sessions, 04-02 and 04-03 (22:00Z to 21:00Z).
    for (const [open, es, nq] of [
      ['2024-04-01', 5000, 18000],
      ['2024-04-02', 5004, 18010],
    ] as const) {
      const next = open === '2024-04-01' ? '2024-04-02' : '2024-04-03';
      rows.push(`${open}T22:00:00Z,ESM4,${es}.00,1`, `${open}T22:00:00Z,NQM4,${nq}.00,1`);
      rows.push(`${next}T20:30:00Z,ESM4,${es + 2}.00,1`, `${next}T20:30:00Z,NQM4,${nq + 20}.00,1`);
    }
    const path = join(folder, 'es-nq.csv');
    writeFileSync(path, rows.join('\n') + '\n');
    const tape = await readSourceTape([{ path, format: 'ticks' }], calendar, 'equity_index');
    const period = periodSessions(calendar, { from: '2024-06-04', to: '2024-06-05' }, 'equity_index');
    const blocks = [
      { at: 0, source: 1, length: 1 },
      { at: 1, source: 0, length: 1 },
    ];
    const prints: string[] = [];
    for (const batch of resampledPrintBatches(tape, blocks, period))
      for (let i = 0; i < batch.length; i++)
        prints.push(`${batch.symbols.symbol(batch.instrumentIndex[i]!)} ${batch.priceTicks[i]! / 4}`);
    // 06-04 lays 04-03 as it traded; 06-05 lays 04-02 with ES +6.00 (5006 − 5000) and NQ +30.00 (18030 − 18000).
    expect(prints).toEqual([
      'ESM4 5004',
      'NQM4 18010',
      'ESM4 5006',
      'NQM4 18030',
      'ESM4 5006',
      'NQM4 18030',
      'ESM4 5008',
      'NQM4 18050',
    ]);
  });
});

/** A back-test config over the ticks above, the period and resample as given. */
function config(period: { from: string; to: string }, resample?: { block_sessions: number }, extra = {}) {
  return parseBacktestConfig(
    {
      name: 'tape',
      seed: 5,
      market: { files: [{ path: esm4File, format: 'ticks', instrument: 'ESM4' }], ...(resample ? { resample } : {}) },
      period,
      traders: { synthetic: { count: 6, strategy: 'random_bracket', params: { trades_per_day: 4 } } },
      base_plan: 'eval-50k-eod',
      grid: { 'risk_profile.max_drawdown_value': ['1000', '2000'] },
      ...extra,
    },
    join(folder, 'config.yaml'),
  );
}

describe('market.resample in a back-test', () => {
  it('a period longer than the data runs on the tape, the same tape in every cell and for any number of workers', async () => {
    const cfg = config({ from: '2024-06-03', to: '2024-07-31' }, { block_sessions: 2 });
    const described = await checkPeriodCoverage(cfg);
    expect(described).toMatchObject({
      block_sessions: 2,
      source: { sessions: 2, from: '2024-04-02', to: '2024-04-03' },
    });
    const [one, two] = [await runBacktest(cfg, { workers: 1 }), await runBacktest(cfg, { workers: 2 })];
    expect(one.cells[0]!.tape).toEqual(described);
    expect(one.cells[1]!.tape).toEqual(described);
    expect(one.cells[0]!.prints, 'prints on every session but the holidays').toBeGreaterThan(100);
    expect(
      one.cells[0]!.traders.filter((t) => t.tradingDays > 0).length,
      'the file instrument ESM4 stands for ES, rolled to ESU4 and ESZ4 on the period: its traders trade',
    ).toBe(6);
    expect(backtestOutputFiles(two)).toEqual(backtestOutputFiles(one));
  });

  it('block_sessions above the whole sessions the files hold is invalid input naming both', async () => {
    await expect(
      checkPeriodCoverage(config({ from: '2024-06-03', to: '2024-07-31' }, { block_sessions: 3 })),
    ).rejects.toThrow(
      'config.yaml: market.resample.block_sessions: expected at most the whole sessions the market files hold, got 3: the market files hold 2 whole sessions (trade dates 2024-04-02 to 2024-04-03) of the 5 they print in',
    );
  });

  it('without resample, the same period is invalid input naming the period and the data', async () => {
    await expect(checkPeriodCoverage(config({ from: '2024-04-02', to: '2024-07-31' }))).rejects.toThrow(
      'is longer than the market data, which holds trade dates 2024-04-01 to 2024-05-27',
    );
  });

  it('resample beside historical fills is refused: fills have their own times and prices', () => {
    const fills = join(folder, 'fills.csv');
    writeFileSync(fills, 'ts,trader,instrument,side,quantity,price\n2024-04-02T14:30:00Z,ann,ESM4,buy,1,5010.00\n');
    expect(() =>
      config(
        { from: '2024-04-02', to: '2024-04-03' },
        { block_sessions: 1 },
        {
          traders: { fills: { path: fills } },
        },
      ),
    ).toThrow('market.resample: expected no resample beside traders.fills');
  });
});
