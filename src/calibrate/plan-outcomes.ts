// The held-out traders and the kinds judged on outcomes (docs/backtesting.md#outcomes-under-a-plan): under a
// named plan, one back-test cell replays the held-out traders' own fills and another trades the kinds on the same
// market and period with the calibrate seed; each first evaluation ends passed, failed or open, and the two groups'
// shares are compared by the exact test of their 2 × 3 table.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { plainFillsCsv } from '../import/fills-csv.js';
import { sessionFamily } from '../backtest/config/block-instruments.js';
import type { CellResult } from '../backtest/cells/cell-runner.js';
import { cellIncidence } from '../backtest/stats/first-outcomes.js';
import { shares } from '../backtest/config/trader-count.js';
import type { TraderFill } from '../import/trader-fill.js';
import { periodSessions } from '../backtest/config/trader-roster.js';
import type { SyntheticTraders } from '../backtest/traders/strategy.js';
import {
  calibrationConfig,
  runCalibrationCell,
  type MarketRun,
  type NamedPlan,
  type PlanFromFile,
} from './calibration-cell.js';
import { CalibrationInputError } from './calibration-input-error.js';
import { freemanHaltonP } from './freeman-halton.js';

/**
 * Synthetic traders run for each held-out one (at least the kinds' own counts): the kinds' shares are then known
 * well enough that the held-out traders, who cannot be had in greater number, limit what the comparison tells.
 */
export const SYNTHETIC_PER_HELD_OUT = 4;

/** One group's first evaluations. */
export interface GroupOutcomes {
  traders: number;
  passed: number;
  failed: number;
  open: number;
  /** F_fail(d) for d = 1..days: the share whose first evaluation had failed by the end of trade date d. */
  failedByDay: number[];
}

export interface PlanOutcomes {
  plan: PlanFromFile;
  /** Trade dates in the period. */
  days: number;
  heldOut: GroupOutcomes;
  kinds: GroupOutcomes;
  /** Held-out traders with no fill in the period: left out, since their accounts would sit idle and stay open. */
  idle: number;
  /** Fisher–Freeman–Halton, held-out against kinds × passed, failed, open. */
  p: number;
}

export async function planOutcomes(
  blocks: readonly SyntheticTraders[],
  heldOutFills: readonly TraderFill[],
  run: MarketRun,
  plan: PlanFromFile,
): Promise<PlanOutcomes> {
  const inPeriod = fillsInPeriod(heldOutFills, run, blocks);
  const heldOutTraders = new Set(heldOutFills.map((f) => f.trader)).size;
  const traders = new Set(inPeriod.map((f) => f.trader)).size;
  if (traders === 0)
    throw new CalibrationInputError(
      `--plan: ${heldOutTraders === 1 ? 'the held-out trader has no fill' : `none of the ${heldOutTraders} held-out traders has a fill`} in --period ${run.period.from}:${run.period.to}, so there are no outcomes to compare; give the period of their fills`,
    );
  const heldOut = await heldOutCell(inPeriod, run, plan);
  const counts = blocks.map((b) => b.count);
  const total = Math.max(
    counts.reduce((a, b) => a + b, 0),
    SYNTHETIC_PER_HELD_OUT * traders,
  );
  const grown = shares(counts, total).map((count, i) => ({ ...blocks[i]!, count }));
  const kinds = await runCalibrationCell(calibrationConfig(run, { synthetic: grown }, plan));
  const h = groupOutcomes(heldOut);
  const k = groupOutcomes(kinds);
  return {
    plan,
    days: kinds.periodDays,
    heldOut: h,
    kinds: k,
    idle: heldOutTraders - traders,
    p: freemanHaltonP([h.passed, h.failed, h.open], [k.passed, k.failed, k.open]),
  };
}

/** The fills of the traders with at least one fill in the period's sessions (the window the cell books fills in). */
function fillsInPeriod(
  fills: readonly TraderFill[],
  run: MarketRun,
  blocks: readonly SyntheticTraders[],
): TraderFill[] {
  const family = sessionFamily({ market: run.market, synthetic: blocks });
  const sessions = periodSessions(new GlobexCalendar(loadHolidayFile()), run.period, family);
  if (sessions.length === 0) return [];
  const startMs = sessions[0]!.openMs;
  const endMs = sessions[sessions.length - 1]!.closeMs;
  const active = new Set(fills.filter((f) => f.timeMs >= startMs && f.timeMs < endMs).map((f) => f.trader));
  return fills.filter((f) => active.has(f.trader));
}

/** The cell reads its fills from a file: the held-out fills go to a propsim fills CSV in a folder removed after. */
async function heldOutCell(fills: readonly TraderFill[], run: MarketRun, plan: NamedPlan): Promise<CellResult> {
  const folder = mkdtempSync(join(tmpdir(), 'propsim-calibrate-'));
  try {
    const path = join(folder, 'held-out-fills.csv');
    writeFileSync(path, plainFillsCsv(fills));
    return await runCalibrationCell(calibrationConfig(run, { fills: { path } }, plan));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function groupOutcomes(cell: CellResult): GroupOutcomes {
  const count = (outcome: string) => cell.traders.filter((t) => t.firstOutcome === outcome).length;
  return {
    traders: cell.traders.length,
    passed: count('passed'),
    failed: count('failed'),
    open: count('open'),
    failedByDay: cellIncidence(cell).map((point) => point.fail.value),
  };
}
