// The prints a cell replays: the market files as they are, or, with `market.resample`, a tape of their whole
// sessions laid on the period (docs/backtesting.md#long-horizons-a-resampled-tape), with what was laid where.
import type { GlobexCalendar, Session } from '../../core/calendar/index.js';
import { marketPrintBatches } from '../../market/sources.js';
import type { TickBatch } from '../../market/tick-batch.js';
import type { BacktestConfig } from '../config/backtest-config.js';
import { BacktestInputError } from '../backtest-input-error.js';
import { sessionFamily } from '../config/block-instruments.js';
import { drawBlocks, type TapeBlock } from './block-draw.js';
import { laidSessions, resampledPrintBatches, TapeBelowZeroError } from './resampled-prints.js';
import { readSourceTape, type SourceTape } from './source-sessions.js';

/** What a resampled tape is made of, for summary.json and the report. */
export interface TapeDescription {
  block_sessions: number;
  /** The whole real sessions drawn from. */
  source: { sessions: number; from: string; to: string };
  /** Each block: the period's trade dates it fills and the real ones laid there. */
  blocks: Array<{ from: string; to: string; source_from: string; source_to: string }>;
}

export interface CellTape {
  batches: AsyncIterable<TickBatch> | Iterable<TickBatch>;
  /** Only for a resampled tape. */
  description?: TapeDescription;
}

export async function cellTape(
  config: BacktestConfig,
  period: readonly Session[],
  calendar: GlobexCalendar,
): Promise<CellTape> {
  if (!config.resample) return { batches: marketPrintBatches(config.market) };
  const { tape, blocks } = await drawTape(config, period, calendar);
  return {
    batches: resampledPrintBatches(tape, blocks, period),
    description: describeTape(config, tape, blocks, period),
  };
}

/**
 * Before any cell runs: the files hold a block's worth of whole sessions, and the tape stays above zero (a shift
 * that drove a price below it would end every cell in an error). Invalid input otherwise.
 */
export async function checkTape(
  config: BacktestConfig & { resample: NonNullable<BacktestConfig['resample']> },
  period: readonly Session[],
  calendar: GlobexCalendar,
): Promise<TapeDescription> {
  const { tape, blocks } = await drawTape(config, period, calendar);
  try {
    for (const batch of resampledPrintBatches(tape, blocks, period)) void batch;
  } catch (error) {
    if (!(error instanceof TapeBelowZeroError)) throw error;
    throw new BacktestInputError(
      `${config.file}: market.resample: ${error.message}, ${period.length} sessions into a tape shifted block by block; resample a shorter period, or from files whose prices are further from zero`,
    );
  }
  return describeTape(config, tape, blocks, period);
}

async function drawTape(
  config: BacktestConfig & { resample?: { blockSessions: number } },
  period: readonly Session[],
  calendar: GlobexCalendar,
): Promise<{ tape: SourceTape; blocks: TapeBlock[] }> {
  const blockSessions = config.resample!.blockSessions;
  const tape = await readSourceTape(config.market, calendar, sessionFamily(config));
  if (tape.whole.length < blockSessions) throw new BacktestInputError(tooFewSessions(config, tape, blockSessions));
  return { tape, blocks: drawBlocks(tape.whole.length, period.length, blockSessions, config.seed) };
}

function tooFewSessions(config: BacktestConfig, tape: SourceTape, blockSessions: number): string {
  const whole = tape.whole;
  const held =
    tape.sessions.length === 0
      ? 'the market files hold no print inside a session'
      : `the market files hold ${whole.length} whole session${whole.length === 1 ? '' : 's'}` +
        (whole.length === 0 ? '' : ` (trade dates ${whole[0]!.tradeDate} to ${whole[whole.length - 1]!.tradeDate})`) +
        ` of the ${tape.sessions.length} they print in (a whole session has its usual hours and prints within its first and last hour)`;
  return `${config.file}: market.resample.block_sessions: expected at most the whole sessions the market files hold, got ${blockSessions}: ${held}; lower block_sessions or add market files`;
}

function describeTape(
  config: BacktestConfig,
  tape: SourceTape,
  blocks: readonly TapeBlock[],
  period: readonly Session[],
): TapeDescription {
  const laid = laidSessions(tape, blocks, period);
  return {
    block_sessions: config.resample!.blockSessions,
    source: {
      sessions: tape.whole.length,
      from: tape.whole[0]!.tradeDate,
      to: tape.whole[tape.whole.length - 1]!.tradeDate,
    },
    blocks: blocks.map((block) => {
      const first = laid[block.at]!;
      const last = laid[block.at + block.length - 1]!;
      return {
        from: first.session.tradeDate,
        to: last.session.tradeDate,
        source_from: first.source.tradeDate,
        source_to: last.source.tradeDate,
      };
    }),
  };
}
