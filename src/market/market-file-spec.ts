// A market file as a scenario or back-test config names it (docs/market-data.md#file-spec).

export interface MarketFileSpec {
  /** Path as the reader should open it; resolving it against the scenario file is the loader's job. */
  path: string;
  /** `databento`: a Databento trades or ohlcv download (CSV or JSON lines), read whole and sorted. */
  format: 'ticks' | 'bars' | 'databento';
  /** Symbol of every row; with an `instrument` column as well, each row must agree with it. */
  instrument?: string;
  /** Bar length in ms (bars only), default 60000. */
  bar_ms?: number;
  /** Read the whole file into memory and stably sort it by time, instead of failing on a time going back. */
  sort?: boolean;
  /**
   * The sha256 the file's bytes must have: a queue worker's reader checks the bytes it reads against it and fails
   * naming both hashes (docs/scaling.md#data-files). Never written in a file; absent, nothing is checked.
   */
  sha256?: string;
}

export const DEFAULT_BAR_MS = 60_000;
