// A replay writes every run's folder in full before it moves any into place (docs/scenarios.md#outputs-of-propsim-replay):
// what a Ctrl-C abandons before the move leaves nothing, and an earlier run's folder of the same name untouched.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/index.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { ReplayOutputs } from '../../src/reports/replay-outputs.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';

const calendar = new GlobexCalendar(loadHolidayFile());

async function twoRunsWritten() {
  const dir = mkdtempSync(join(tmpdir(), 'propsim-outputs-'));
  const out = join(dir, 'out');
  mkdirSync(join(out, 'passing-at-the-roll'), { recursive: true });
  writeFileSync(join(out, 'passing-at-the-roll', 'events.jsonl'), 'an earlier run\n');
  const outputs = new ReplayOutputs(out);
  const runs = [];
  // Two example scenarios: their folders are passing-at-the-roll and time-in-force.
  for (const file of ['scenarios/passing.yaml', 'scenarios/time-in-force.yaml'])
    runs.push(await outputs.run(loadScenarioFile(file), { calendar }));
  const written = await outputs.write(runs);
  return { out, outputs, written };
}

describe('ReplayOutputs: nothing is in place until every run is written', () => {
  it('write() fills the staging folders only; moveIntoPlace() renames them all', async () => {
    const { out, outputs, written } = await twoRunsWritten();
    expect(written.map((w) => w.folder)).toEqual([join(out, 'passing-at-the-roll'), join(out, 'time-in-force')]);
    expect(readdirSync(out).sort()).toEqual([
      `.passing-at-the-roll.partial-${process.pid}`,
      `.time-in-force.partial-${process.pid}`,
      'passing-at-the-roll',
    ]);
    expect(
      readFileSync(join(out, 'passing-at-the-roll', 'events.jsonl'), 'utf8'),
      "an earlier run's folder is untouched",
    ).toBe('an earlier run\n');
    expect(readdirSync(join(out, `.time-in-force.partial-${process.pid}`)).sort()).toEqual([
      'events.jsonl',
      'report.html',
      'state.json',
    ]);
    outputs.moveIntoPlace();
    expect(readdirSync(out).sort()).toEqual(['passing-at-the-roll', 'time-in-force']);
    expect(readFileSync(join(out, 'passing-at-the-roll', 'events.jsonl'), 'utf8')).toContain(
      '"type":"input.kernel_started"',
    );
    outputs.abandon(); // as a Ctrl-C after the move: what is in place stays
    expect(readdirSync(out).sort()).toEqual(['passing-at-the-roll', 'time-in-force']);
  });

  it("abandon() after write() (a Ctrl-C while reports are drawn) removes what it staged, and leaves an earlier run's folder", async () => {
    const { out, outputs } = await twoRunsWritten();
    outputs.abandon();
    expect(readdirSync(out)).toEqual(['passing-at-the-roll']);
    expect(readFileSync(join(out, 'passing-at-the-roll', 'events.jsonl'), 'utf8')).toBe('an earlier run\n');
  });

  it('a folder that cannot be moved stops the move, and the folders not moved yet are removed', async () => {
    const { out, outputs } = await twoRunsWritten();
    rmSync(join(out, `.passing-at-the-roll.partial-${process.pid}`), { recursive: true }); // gone from under it
    expect(() => outputs.moveIntoPlace()).toThrow(/ENOENT/);
    expect(readdirSync(out), "the second run is not left staged; the earlier run's folder is put back").toEqual([
      'passing-at-the-roll',
    ]);
    expect(readFileSync(join(out, 'passing-at-the-roll', 'events.jsonl'), 'utf8')).toBe('an earlier run\n');
  });
});
