// A run's progress (src/scenario/runner.ts, RunOptions.onProgress): told the prints replayed so far and the
// simulated time at each session roll, so a long `advance` with no prints in it still shows where the clock is.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { runScenario } from '../../src/scenario/runner.js';

/** Tuesday 2026-03-10 09:00 CDT; three ES prints in its first minute, then the clock advances three days. */
function scenarioFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'propsim-progress-'));
  const start = Date.parse('2026-03-10T14:00:00Z');
  writeFileSync(
    join(folder, 'es.csv'),
    ['ts,instrument,price,size', ...[10, 20, 30].map((s) => `${start + s * 1000},ESM6,5000.25,1`)].join('\n') + '\n',
  );
  writeFileSync(
    join(folder, 'progress.yaml'),
    [
      'name: progress',
      'start: 2026-03-10T09:00:00-05:00',
      'market: { files: [ { path: es.csv, format: ticks } ] }',
      'plans:',
      '  p: { starting_balance: "50000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "2000" }, passing_criteria: { profit_target: "3000" } }',
      'accounts: [ { alias: a, plan: p } ]',
      'steps:',
      '  - advance: 3d',
    ].join('\n'),
  );
  return join(folder, 'progress.yaml');
}

describe('replay progress', () => {
  it('reports each session roll with the prints replayed before it', async () => {
    const told: Array<[number, string]> = [];
    await runScenario(loadScenarioFile(scenarioFile()), {
      calendar: new GlobexCalendar(loadHolidayFile()),
      onProgress: (prints, timeMs) => told.push([prints, new Date(timeMs).toISOString()]),
    });
    // The session rolls at 17:00 CT, 22:00 UTC under daylight time (docs/calendar.md#session-rolls): three of them
    // in three days from Tuesday 09:00, each after the three prints of Tuesday morning.
    expect(told, 'one report per roll, the prints so far and the roll time').toEqual([
      [3, '2026-03-10T22:00:00.000Z'],
      [3, '2026-03-11T22:00:00.000Z'],
      [3, '2026-03-12T22:00:00.000Z'],
    ]);
  });
});
