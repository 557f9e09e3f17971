// The piscina worker entry: runs one grid cell (plain data in, plain data out). One calendar per worker.
import { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../market/holiday-file.js';
import { MarketDataError } from '../../market/market-data-error.js';
import { ScenarioError } from '../../scenario/scenario-error.js';
import { runCell, type CellInput, type CellResult } from './cell-runner.js';

const calendar = new GlobexCalendar(loadHolidayFile());

/** A cell's result, or the message of invalid input found while running it (a bad market row). */
export type WorkerAnswer = { result: CellResult } | { inputError: string };

// Error classes do not survive the thread boundary, so invalid input travels back as data.
export default async function runCellInWorker(input: CellInput): Promise<WorkerAnswer> {
  try {
    return { result: await runCell(input, calendar) };
  } catch (error) {
    if (error instanceof MarketDataError || error instanceof ScenarioError) return { inputError: error.message };
    throw error;
  }
}
