// The one error a market file reader throws: where (file, line, column) and what was expected.

/**
 * A market file that cannot be read as its format says. `line` is 1-based with the header as line 1, or 0
 * when the problem is not on a line (a file that cannot be opened, a bad key of the file spec).
 */
export class MarketDataError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    /** The header name of the offending column, when the problem is in one field. */
    readonly column: string | undefined,
    readonly expected: string,
    /** What was found, already formatted for the message (quoted when it is file text). */
    readonly received: string,
    options?: ErrorOptions,
  ) {
    super(
      `${line > 0 ? `${file}:${line}` : file}: ${column === undefined ? '' : `column ${column}: `}expected ${expected}, got ${received}`,
      options,
    );
    this.name = 'MarketDataError';
  }
}

const MAX_QUOTED_CHARS = 80;

/** Quotes file text for a message, cut short so a runaway line does not flood the terminal. */
export function quoteText(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${JSON.stringify(text.slice(0, MAX_QUOTED_CHARS))}…` : JSON.stringify(text);
}
