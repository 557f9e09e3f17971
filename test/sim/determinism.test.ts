// Determinism is a feature (docs/architecture.md#determinism-is-a-feature): same inputs + same seed ⇒ byte-identical
// event journal. Every example scenario is replayed twice and compared byte for byte (and by events_sha256); a
// different seed changes the ids in the journal and nothing else of the outcome. At kernel level, a random command
// sequence applied to two fresh kernels with one seed gives identical journals.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/index.js';
import { parseJournal, replayJournal } from '../../src/core/kernel/persistence/journal-replay.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { eventsSha256 } from '../../src/reports/replay-outputs.js';
import { runScenario, type ScenarioRun } from '../../src/scenario/runner.js';
import { commandArb, setupArb, type Command, type RunSetup } from '../model/kernel-command-arbs.js';
import { resolve, run } from '../model/kernel-commands.js';
import { newSim } from '../model/kernel-sim.js';

const calendar = new GlobexCalendar(loadHolidayFile());
const SCENARIO_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));
const SCENARIO_FILES = readdirSync(SCENARIO_DIR)
  .filter((name) => name.endsWith('.yaml'))
  .sort();

/** Ids are UUIDs from the seeded generator; masking them (and the seed the journal records) leaves what the seed must
 * not change. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const withoutIds = (value: unknown): string => JSON.stringify(value).replace(UUID, '<id>');
const journalWithoutIds = (journal: string): string =>
  journal.replace(UUID, '<id>').replace(/"seed":\d+/g, '"seed":<seed>');

/** The first line where two journals differ (for a readable failure), or undefined when they are equal. */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  const [linesA, linesB] = [a.split('\n'), b.split('\n')];
  const at = linesA.findIndex((line, i) => line !== linesB[i]);
  const i = at < 0 ? linesA.length : at;
  return `line ${i + 1}:\n  ${linesA[i] ?? '(end)'}\n  ${linesB[i] ?? '(end)'}`;
}

const outcomeOf = (run: ScenarioRun) => ({
  passed: run.passed,
  expectations: run.expectations.map((e) => ({
    step: e.step,
    subject: e.subject,
    field: e.field,
    passed: e.passed,
    actual: e.actual,
  })),
  final: run.final,
});

describe('docs/architecture.md#determinism-is-a-feature: example scenarios are deterministic', () => {
  it('the scenarios folder holds the example scenarios', () => {
    expect(SCENARIO_FILES.length, `scenarios/*.yaml in ${SCENARIO_DIR}`).toBeGreaterThanOrEqual(7);
  });

  describe.each(SCENARIO_FILES)('%s', (file) => {
    const scenario = loadScenarioFile(join(SCENARIO_DIR, file));

    it('passes, and two runs give a byte-identical journal and events_sha256', async () => {
      const first = await runScenario(scenario, { calendar });
      const second = await runScenario(scenario, { calendar });
      const failed = first.expectations.filter((e) => !e.passed);
      expect(failed, `${file}: every expectation of an example scenario holds`).toEqual([]);
      expect(first.passed, `${file}: an example scenario passes`).toBe(true);
      expect(first.journal.length, `${file}: the run journals its inputs and events`).toBeGreaterThan(0);
      expect(
        firstDifference(first.journal, second.journal),
        `${file}: same inputs + same seed ⇒ byte-identical journal`,
      ).toBeUndefined();
      expect(eventsSha256(second), `${file}: same inputs + same seed ⇒ same events_sha256`).toBe(eventsSha256(first));
      expect(second.final, `${file}: same inputs + same seed ⇒ same final state`).toEqual(first.final);
    });

    it('another seed changes the ids, not the outcome', async () => {
      const base = await runScenario(scenario, { calendar });
      const reseeded = await runScenario(scenario, { calendar, seed: 99 });
      expect(scenario.seed, `${file}: the override must differ from the scenario's own seed`).not.toBe(99);
      expect(reseeded.seed, `${file}: the run reports the seed it used`).toBe(99);
      expect(reseeded.journal === base.journal, `${file}: ids come from the seed, so the journal changes with it`).toBe(
        false,
      );
      expect(eventsSha256(reseeded), `${file}: …and so does events_sha256`).not.toBe(eventsSha256(base));
      expect(reseeded.passed, `${file}: the seed does not change whether the scenario passes`).toBe(base.passed);
      expect(
        withoutIds(outcomeOf(reseeded)),
        `${file}: the seed changes ids only: expectations' actual values and the final state are the same`,
      ).toBe(withoutIds(outcomeOf(base)));
      expect(
        firstDifference(journalWithoutIds(base.journal), journalWithoutIds(reseeded.journal)),
        `${file}: the seed changes ids only: the journal is the same once ids are masked`,
      ).toBeUndefined();
    });
  });
});

/** The journal of a command sequence; a third account on a tight plan adds breaches, cancels and flattening. */
function journalOf(setup: RunSetup, commands: readonly Command[], seed: number): string {
  const sim = newSim(setup, { seed, tightAccount: true });
  for (const command of commands) run(sim, resolve(sim, command));
  return sim.kernel.journal.text();
}

describe('docs/architecture.md#determinism-is-a-feature: the kernel is deterministic', () => {
  it('the same random command sequence on two fresh kernels with the same seed gives identical journals', () => {
    fc.assert(
      fc.property(
        setupArb,
        fc.array(commandArb(500), { minLength: 1, maxLength: 60, size: 'max' }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (setup, commands, seed) => {
          const first = journalOf(setup, commands, seed);
          const second = journalOf(setup, commands, seed);
          expect(
            firstDifference(first, second),
            `seed ${seed}: same commands + same seed ⇒ byte-identical journal`,
          ).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  });

  it('the journal is its own input: replaying the journal of a random run writes it again, byte for byte', () => {
    fc.assert(
      fc.property(
        setupArb,
        fc.array(commandArb(500), { minLength: 1, maxLength: 60, size: 'max' }),
        (setup, commands) => {
          const journal = journalOf(setup, commands, 7);
          const replayed = replayJournal(parseJournal(journal), calendar).journal.text();
          expect(
            firstDifference(journal, replayed),
            'same inputs (the input lines of the journal) + same seed ⇒ the same journal',
          ).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a different seed changes only the ids in the journal', () => {
    fc.assert(
      fc.property(
        setupArb,
        fc.array(commandArb(500), { minLength: 1, maxLength: 60, size: 'max' }),
        (setup, commands) => {
          const a = journalOf(setup, commands, 1);
          const b = journalOf(setup, commands, 2);
          expect(b === a, 'the accounts opened get other ids under another seed').toBe(false);
          expect(
            firstDifference(journalWithoutIds(a), journalWithoutIds(b)),
            'the seed draws ids only: with ids masked the journals are equal',
          ).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  });
});
