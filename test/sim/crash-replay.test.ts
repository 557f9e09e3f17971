// Crash and replay: a kernel rebuilt from the journal up to any input k, then given the remaining inputs,
// writes exactly the journal of the uninterrupted run (every example scenario, every k). A scenario with market
// files journals them by reference: their prints are read again from the files for the replay.
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/index.js';
import { applyInput, replayJournal } from '../../src/core/kernel/persistence/journal-replay.js';
import { MarketPrintCursor } from '../../src/core/kernel/persistence/market-prints.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { SCENARIO_FILES, scenarioJournal } from './scenario-journals.js';

const calendar = new GlobexCalendar(loadHolidayFile());

describe('crash and replay from the journal', () => {
  it.each(SCENARIO_FILES)(
    '%s: replaying inputs 1..k and continuing gives the uninterrupted journal, for every k',
    async (file) => {
      const { journal, entries, prints, inputAt } = await scenarioJournal(file, calendar);
      expect(inputAt.length, 'the scenario journals its inputs').toBeGreaterThan(3);
      const step = Math.max(1, Math.floor(inputAt.length / 25)); // up to ~25 crash points per scenario
      for (let k = 1; k < inputAt.length; k += step) {
        const crashAt = inputAt[k]!; // everything before the (k+1)-th input survived the crash
        const market = new MarketPrintCursor(prints);
        const kernel = replayJournal(entries.slice(0, crashAt), calendar, { market });
        for (const entry of entries.slice(crashAt))
          if (entry.type.startsWith('input.')) applyInput(kernel, entry, market);
        expect(kernel.journal.text(), `crash after input ${k} of ${inputAt.length}`).toBe(journal);
      }
    },
  );
});
