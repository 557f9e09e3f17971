// Invalid input to an importer that is not a bad row (those are MarketDataErrors naming file, line and column).

export class ImportInputError extends Error {
  override name = 'ImportInputError';
}

/** An export whose times have no offset, read without a zone to place them in (--tz, or `tz:` in a config). */
export class MissingZoneError extends ImportInputError {
  override name = 'MissingZoneError';
  constructor(
    readonly file: string,
    readonly column: string,
    readonly why: string,
  ) {
    super(`${file}: column ${column} has times with no offset (${why})`);
  }
}

/**
 * An export whose slash dates do not show the order of day and month, read without one (--date-order, or
 * `date_order:` in a config): every date is ambiguous, or one reads only as day/month (docs/backtesting.md#importing-broker-exports).
 */
export class DateOrderError extends ImportInputError {
  override name = 'DateOrderError';
  constructor(
    readonly problem: 'ambiguous' | 'day_first',
    message: string,
    /** The row's date read month/day and day/month, `YYYY-MM-DD` (undefined in an order it is impossible in). */
    readonly readings: { mdy: string | undefined; dmy: string | undefined },
  ) {
    super(message);
  }
}
