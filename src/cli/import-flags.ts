// What a broker export may need from the command line (`propsim import fills`, `propsim calibrate`): --tz for times
// without an offset, --date-order for slash dates that do not show their order; and the refusal of an export that
// needs one, in the flag's words.
import { dateOrderRefusal } from '../import/date-order.js';
import { DATE_ORDERS } from '../import/export-time.js';
import { DateOrderError, MissingZoneError } from '../import/import-input-error.js';
import { CliInputError } from './input-error.js';

export const DATE_ORDER_OPTION = {
  describe:
    'the order of month and day in slash dates: mdy (1/2/2024 is January 2, US) or dmy (1/2/2024 is 1 February, UK); needed when no date of a file has a day above 12, and for day/month exports; ISO dates need none',
  choices: DATE_ORDERS,
  requiresArg: true,
} as const;

/** A refusal of the importer that a flag answers, as that flag's error; any other error as it is. */
export function importFlagError(error: unknown): unknown {
  if (error instanceof MissingZoneError)
    return new CliInputError(`--tz: required: ${error.message}; name their zone, such as --tz America/Chicago`);
  if (error instanceof DateOrderError)
    return new CliInputError(`--date-order: ${dateOrderRefusal(error, (order) => `--date-order ${order}`)}`);
  return error;
}
