// The piscina worker entry: runs one grid cell (plain data in, plain data out). One calendar per worker.
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { runCell, type CellInput, type CellResult } from './cell-runner.js';

const calendar = new GlobexCalendar(loadHolidayFile());

export default function runCellInWorker(input: CellInput): Promise<CellResult> {
  return runCell(input, calendar);
}
