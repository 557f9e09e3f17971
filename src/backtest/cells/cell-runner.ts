// One grid cell of a back-test: a fresh kernel, one account per trader on the cell's plan, the market replayed
// over the period with the traders waking in between, then the outcomes. Input and output are plain data, so
// a cell runs the same in this thread, a worker thread, or another machine. The steps are cell-setup.ts (the
// kernel and the participants), cell-replay.ts (the market and the traders' wake-ups), cell-outcomes.ts.
import { GlobexCalendar } from '../../core/calendar/index.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import { loadHolidayFile } from '../../market/holiday-file.js';
import type { BacktestConfig } from '../config/backtest-config.js';
import type { GridCell } from '../config/grid.js';
import type { TraderValidation } from '../validation/compare-records.js';
import { cellTape, type TapeDescription } from '../tape/cell-tape.js';
import { summarizeCell, type CellSummary, type TraderOutcome } from './outcomes.js';
import { cellValidation, traderOutcomes } from './cell-outcomes.js';
import { CellReplay } from './cell-replay.js';
import { CellSamples, type FanPoint, type SamplePoint } from './cell-samples.js';
import { setUpCell } from './cell-setup.js';
import type { MissingPrints } from './traded-markets.js';

export interface CellInput {
  config: BacktestConfig;
  cell: GridCell;
}

export interface CellResult {
  cell: GridCell;
  summary: CellSummary;
  traders: TraderOutcome[];
  /** Sampled traders' lines; a failed account's line ends at the sample that saw the breach. */
  samples: Array<{ trader: string; points: SamplePoint[] }>;
  /** Percentiles of headroom over all the cell's accounts, every sample time (docs/backtesting.md#reading-reporthtml). */
  fan: FanPoint[];
  prints: number;
  /** Trade dates in the period: the days its outcomes are counted in. */
  periodDays: number;
  accountSessionDays: number;
  /** Sessions in which the contract of a root a block trades had no print, in session order. */
  missingPrints: MissingPrints[];
  /** With market.resample: the real sessions laid on the period (the same in every cell). */
  tape?: TapeDescription;
  /** The reference cell with the firm's records: each recorded trader against its record. */
  validation?: TraderValidation[];
}

/** Sees the kernel at the end of a cell, with each trader's account: calibration reads the synthetic traders' fills. */
export type CellObserver = (kernel: Kernel, accounts: ReadonlyArray<{ trader: string; accountId: string }>) => void;

export async function runCell(
  { config, cell }: CellInput,
  calendar = new GlobexCalendar(loadHolidayFile()),
  observe?: CellObserver,
): Promise<CellResult> {
  const setup = setUpCell(config, cell, calendar);
  const { kernel, sessions, participants } = setup;
  const samples = new CellSamples(kernel, participants, config.sampleTraders);
  const replay = new CellReplay(setup, samples, config.economics.funnel !== undefined);
  const tape = await cellTape(config, sessions, calendar);
  await replay.replay(tape.batches);
  // The roll after the last session settles passing (docs/risk-rules.md#passing).
  const finalRollMs = calendar.nextSessionRollFamily(setup.endMs, setup.family);
  kernel.advanceTo(finalRollMs);
  observe?.(
    kernel,
    participants.map((p) => ({ trader: p.spec.id, accountId: p.accountId })),
  );
  const traders = traderOutcomes(config, setup, calendar, finalRollMs);
  const validation = cellValidation(config, cell, setup, calendar, traders);
  return {
    cell,
    summary: summarizeCell(traders),
    traders,
    samples: samples.samples,
    fan: samples.fan,
    prints: replay.prints,
    periodDays: sessions.length,
    accountSessionDays: participants.length * sessions.length,
    missingPrints: replay.missingPrints,
    ...(tape.description === undefined ? {} : { tape: tape.description }),
    ...(validation === undefined ? {} : { validation }),
  };
}
