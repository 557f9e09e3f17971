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
