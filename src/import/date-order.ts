// Which order a file's slash dates are in when the user did not say (docs/backtesting.md#importing-broker-exports).
// One export is written in one locale, so one date that reads only one way shows the whole file's order; but propsim
// never guesses: a file whose every date reads both ways (days 1 to 12: 02/01/2024 is 1 February or 2 January), or
// one that looks like day/month, is refused, naming the first such row, until the order is given.
import { quoteText } from '../market/market-data-error.js';
import type { ExportTable } from './export-table.js';
import { slashDateReadings, type DateOrder } from './export-time.js';
import { DateOrderError } from './import-input-error.js';

/** Month/day when a date of the column reads only that way (or the file has no slash dates); else throws. */
export function fileDateOrder(table: ExportTable, column: { index: number; name: string }): DateOrder {
  let firstAmbiguous: { line: number; text: string; mdy: string; dmy: string } | undefined;
  let monthFirst = false;
  for (const row of table.rows) {
    const text = row.fields[column.index] ?? '';
    const readings = slashDateReadings(text);
    if (!readings) continue;
    const where = `${table.file}:${row.line}: column ${column.name}: ${quoteText(text.trim())}`;
    if (readings.mdy === undefined && readings.dmy !== undefined) {
      const month = text.trim().split('/')[0];
      throw new DateOrderError(
        'day_first',
        `${where} reads only as day/month (there is no month ${Number(month)}): the file looks like day/month order`,
        readings,
      );
    }
    if (readings.mdy !== undefined && readings.dmy === undefined) monthFirst = true;
    else if (readings.mdy !== undefined && readings.dmy !== undefined)
      firstAmbiguous ??= { line: row.line, text, mdy: readings.mdy, dmy: readings.dmy };
  }
  if (monthFirst || firstAmbiguous === undefined) return 'mdy';
  const { line, text, mdy, dmy } = firstAmbiguous;
  throw new DateOrderError(
    'ambiguous',
    `${table.file}:${line}: column ${column.name}: ${quoteText(text.trim())} reads as month/day (${mdy}) or day/month (${dmy}), and so does every date of the file: none has a day above 12 to show which comes first`,
    { mdy, dmy },
  );
}

/**
 * The refusal with what to set, in the words of the command line or the config (`--date-order dmy`,
 * `date_order: dmy`), for the caller to put after the flag's or field's name.
 */
export function dateOrderRefusal(error: DateOrderError, setting: (order: DateOrder) => string): string {
  if (error.problem === 'day_first') return `${error.message}; if so, read it with ${setting('dmy')}`;
  const { mdy, dmy } = error.readings;
  return `required: ${error.message}; ${setting('mdy')} reads it as ${mdy}, ${setting('dmy')} as ${dmy}`;
}
