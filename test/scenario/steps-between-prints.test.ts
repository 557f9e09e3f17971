// Steps placed among a stream of prints (docs/scenarios.md#timing): a clock step to T follows every print at or
// before T; the steps after it run at T before any later print; two clock steps can come due at one print; once
// the last step has run, later prints are not applied.
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/globex-calendar.js';
import { Kernel } from '../../src/core/kernel/kernel.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { SymbolTable } from '../../src/market/symbol-table.js';
import { TickBatchBuilder } from '../../src/market/tick-batch.js';
import type { ScenarioStep } from '../../src/scenario/scenario-types.js';
import { StepsBetweenPrints } from '../../src/scenario/steps-between-prints.js';

/** Tuesday 2026-03-10 09:00 CDT: the market is open. */
const START_MS = Date.parse('2026-03-10T14:00:00Z');
const at = (offsetMs: number) => ({ kind: 'at', timeMs: START_MS + offsetMs }) as unknown as ScenarioStep;
const action = (name: string) => ({ kind: 'expect', name }) as unknown as ScenarioStep;

function batchOf(offsetsMs: number[]) {
  const symbols = new SymbolTable();
  symbols.register('ESM6');
  const builder = new TickBatchBuilder(symbols, offsetsMs.length);
  offsetsMs.forEach((offset, i) => builder.push(START_MS + offset, 20_000 + i, Infinity, 0, i + 2, 0));
  return builder.take();
}

function replayWith(steps: ScenarioStep[]) {
  const kernel = new Kernel({ startMs: START_MS, seed: 1, calendar: new GlobexCalendar(loadHolidayFile()) });
  const log: string[] = [];
  const replay = new StepsBetweenPrints(kernel, steps, START_MS, {
    advance: (step) => {
      kernel.dispatch({ type: 'advance', to_ms: step.timeMs });
      log.push(`advance +${step.timeMs - START_MS}`);
    },
    run: (step) => log.push(`run ${(step as unknown as { name: string }).name}`),
    afterStep: () => log.push(`  (${replay.printsReplayed} prints)`),
  });
  return { kernel, log, replay };
}

describe('StepsBetweenPrints', () => {
  it('runs each step after the prints it follows, two clock steps at one print, and stops after the last', () => {
    const { kernel, log, replay } = replayWith([action('A'), at(60), at(80), action('B')]);
    const more = replay.take(batchOf([-10, 0, 60, 70, 100, 120]));
    expect(more).toBe(false);
    expect(log).toEqual([
      // -10 is before the start (skipped, counted); 0 is at the start, replayed before step 0.
      'run A', // at the print +60, which is after the start
      '  (1 prints)',
      // +60 is replayed, then +70 is after the at(+60): the clock moves, and at(+80) now waits for its prints
      'advance +60',
      '  (2 prints)',
      // +100 is after +80: the clock moves, B runs, and nothing is left, so +100 and +120 are not applied
      'advance +80',
      '  (3 prints)',
      'run B',
      '  (3 prints)',
    ]);
    expect(replay.printsBeforeStart).toBe(1);
    expect(replay.printsReplayed).toBe(3);
    expect(kernel.nowMs).toBe(START_MS + 80);
  });

  it('runs the remaining steps when the prints end first', () => {
    const { log, replay } = replayWith([at(500), action('C')]);
    expect(replay.take(batchOf([0, 10]))).toBe(true);
    replay.finish();
    expect(log).toEqual(['advance +500', '  (2 prints)', 'run C', '  (2 prints)']);
  });

  it('with no steps, replays only the prints at or before the start', () => {
    const { replay } = replayWith([]);
    expect(replay.take(batchOf([0, 0, 5]))).toBe(false);
    expect(replay.printsReplayed).toBe(2);
  });
});
