// What a sandbox is started with (docs/api.md#start-up): the seed, the clock's start and mode, the calendar and the
// --market files, and where a restart speaks; and a session as a logout or refresh names it.
import type { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import type { MarketFileSpec } from '../../market/market-file-spec.js';
import type { SandboxSeed } from './seed-file.js';

export type ClockMode = 'manual' | 'realtime';

/** A session token as a logout or refresh names it: its id and expiry. */
export interface Session {
  tokenId: string;
  expiresAtMs: number;
}

export interface SandboxConfig {
  seed: SandboxSeed;
  /** The clock's start: --start, else the seed's start, else the default (docs/api.md#start-up). */
  startMs: number;
  calendar: GlobexCalendar;
  market: readonly MarketFileSpec[];
  clockMode: ClockMode;
  /** With a durable store, a snapshot every this many journal lines (default SNAPSHOT_EVERY_LINES). */
  snapshotEveryLines?: number;
  /** Where a restart says what it could not use (a snapshot it cannot read); default stderr. */
  warn?: (message: string) => void;
  /**
   * Where a restart says what it restores and how long it took, and each snapshot how long it held the server (serve:
   * stderr): both take seconds with a large state, and whoever waits meanwhile should find out why. Default: silent.
   */
  note?: (message: string) => void;
}

/** 2026-03-02T08:00:00-06:00: a Monday morning with the equity market open. */
export const DEFAULT_START_MS = Date.UTC(2026, 2, 2, 14, 0, 0);
