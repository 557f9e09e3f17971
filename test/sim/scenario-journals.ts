// The example scenarios' journals, for the tests that cut a run at each input and go on from there (crash and
// replay, state snapshots): each scenario's journal, its entries, the prints of the market files it references,
// and where its inputs are.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GlobexCalendar } from '../../src/core/calendar/index.js';
import { parseJournal } from '../../src/core/kernel/persistence/journal-replay.js';
import type { JournalEntry } from '../../src/core/kernel/persistence/journal.js';
import type { MarketPrint } from '../../src/core/kernel/persistence/market-prints.js';
import { referencedMarketPrints } from '../../src/market/market-references.js';
import { loadScenarioFile } from '../../src/scenario/load-scenario.js';
import { runScenario } from '../../src/scenario/runner.js';
import { scenarioFolder } from '../../src/scenario/scenario-market.js';

export const SCENARIO_FILES = readdirSync('scenarios').filter((f) => f.endsWith('.yaml'));

export interface ScenarioJournal {
  journal: string;
  entries: JournalEntry[];
  prints: MarketPrint[];
  /** The index in `entries` of each input line. */
  inputAt: number[];
}

export async function scenarioJournal(file: string, calendar: GlobexCalendar): Promise<ScenarioJournal> {
  const run = await runScenario(loadScenarioFile(join('scenarios', file)), { calendar });
  const entries = parseJournal(run.journal);
  const market = entries.find((e) => e.type === 'input.market_files')?.data as { files: unknown } | undefined;
  const prints = market
    ? [...(await referencedMarketPrints(market.files, scenarioFolder(join('scenarios', file))))]
    : [];
  const inputAt = entries.flatMap((e, i) => (e.type.startsWith('input.') ? [i] : []));
  return { journal: run.journal, entries, prints, inputAt };
}
