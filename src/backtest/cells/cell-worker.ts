// The piscina worker entry: runs one grid cell (plain data in, plain data out). The calendar is this package's
// holiday file, read once per thread, or the one a queue shard carries (docs/scaling.md#data-files), parsed once per
// thread while the shards bring the same one.
import { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import { parseHolidayDocument } from '../../core/calendar/holidays.js';
import { loadHolidayFile } from '../../market/holiday-file.js';
import { MarketDataError } from '../../market/market-data-error.js';
import { ScenarioError } from '../../scenario/scenario-error.js';
import { runCell, type CellInput, type CellResult } from './cell-runner.js';

/** A cell, and on a queue the coordinator's holiday calendar as its document. */
export interface WorkerInput extends CellInput {
  holidays?: unknown;
}

let ownCalendar: GlobexCalendar | undefined;
let carried: { text: string; calendar: GlobexCalendar } | undefined;

function calendarFor(holidays: unknown): GlobexCalendar {
  if (holidays === undefined) return (ownCalendar ??= new GlobexCalendar(loadHolidayFile()));
  const text = JSON.stringify(holidays);
  if (carried?.text !== text)
    carried = { text, calendar: new GlobexCalendar(parseHolidayDocument(holidays, "the coordinator's holiday file")) };
  return carried.calendar;
}

/** A cell's result, or the message of invalid input found while running it (a bad market row). */
export type WorkerAnswer = { result: CellResult } | { inputError: string };

// Error classes do not survive the thread boundary, so invalid input travels back as data.
export default async function runCellInWorker({ holidays, ...input }: WorkerInput): Promise<WorkerAnswer> {
  try {
    return { result: await runCell(input, calendarFor(holidays)) };
  } catch (error) {
    if (error instanceof MarketDataError || error instanceof ScenarioError) return { inputError: error.message };
    throw error;
  }
}
