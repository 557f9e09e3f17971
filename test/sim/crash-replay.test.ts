// Crash and replay: a kernel rebuilt from the journal up to any input k, then given the remaining inputs,
// writes exactly the journal of the uninterrupted run (every example scenario, every k).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/index.js';
import { applyInput, parseJournal, replayJournal } from '../../src/core/kernel/journal-replay.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { runScenario } from '../../src/scenario/runner.js';

const calendar = new GlobexCalendar(loadHolidayFile());
const files = readdirSync('scenarios').filter((f) => f.endsWith('.yaml'));

describe('crash and replay from the journal', () => {
  it.each(files)(
    '%s: replaying inputs 1..k and continuing gives the uninterrupted journal, for every k',
    async (file) => {
      const run = await runScenario(loadScenarioFile(join('scenarios', file)), { calendar });
      const entries = parseJournal(run.journal);
      const inputAt = entries.flatMap((e, i) => (e.type.startsWith('input.') ? [i] : []));
      expect(inputAt.length, 'the scenario journals its inputs').toBeGreaterThan(3);
      const step = Math.max(1, Math.floor(inputAt.length / 25)); // up to ~25 crash points per scenario
      for (let k = 1; k < inputAt.length; k += step) {
        const crashAt = inputAt[k]!; // everything before the (k+1)-th input survived the crash
        const kernel = replayJournal(entries.slice(0, crashAt), calendar);
        for (const entry of entries.slice(crashAt)) if (entry.type.startsWith('input.')) applyInput(kernel, entry);
        expect(kernel.journal.text(), `crash after input ${k} of ${inputAt.length}`).toBe(run.journal);
      }
    },
  );
});
