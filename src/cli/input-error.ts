// Which failures are the user's input (exit 2, message only) and which are bugs (exit 3, with a stack).
import { DecimalInputError, OffTickGridError } from '../core/money.js';
import { UnknownInstrumentError } from '../core/instruments.js';
import { TimeInputError } from '../core/time.js';
import { HolidayFileError } from '../core/calendar/holidays.js';
import { MarketDataError } from '../market/market-data-error.js';
import { ScenarioError } from '../scenario/scenario-error.js';
import { BacktestInputError } from '../backtest/backtest-input-error.js';
import { StoreFileError } from '../store/store-file-error.js';
import { ImportInputError } from '../import/import-input-error.js';
import { QueueInputError, QueueLostError, ShardFailedError } from '../backtest/queue/queue-errors.js';

/** Invalid input found by a command itself (a bad argument, an unreadable file). */
export class CliInputError extends Error {
  override name = 'CliInputError';
}

/**
 * A run that failed for a reason outside propsim: a shard failed on every attempt, no worker or no Redis for the
 * whole --worker-wait (docs/scaling.md#failures).
 */
export const EXIT_RUN_FAILED = 1;
export const EXIT_INVALID_INPUT = 2;
export const EXIT_INTERNAL_ERROR = 3;

const INPUT_ERRORS: ReadonlyArray<new (...args: never[]) => Error> = [
  CliInputError,
  DecimalInputError,
  OffTickGridError,
  UnknownInstrumentError,
  TimeInputError,
  HolidayFileError,
  MarketDataError,
  ScenarioError,
  BacktestInputError,
  StoreFileError,
  ImportInputError,
  QueueInputError,
];

export function isInputError(error: unknown): error is Error {
  return INPUT_ERRORS.some((type) => error instanceof type);
}

/** Prints an error for `command` on stderr and sets the exit code; never throws. */
export function reportFailure(command: string, error: unknown): void {
  if (isInputError(error)) {
    process.stderr.write(`propsim ${command}: ${error.message}\n`);
    process.exitCode = EXIT_INVALID_INPUT;
    return;
  }
  if (error instanceof ShardFailedError || error instanceof QueueLostError) {
    process.stderr.write(`propsim ${command}: ${error.message}\n`);
    process.exitCode = EXIT_RUN_FAILED;
    return;
  }
  process.stderr.write(
    `propsim ${command}: internal error (please report it):\n${(error as Error)?.stack ?? String(error)}\n`,
  );
  process.exitCode = EXIT_INTERNAL_ERROR;
}
