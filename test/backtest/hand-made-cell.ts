// A cell's result built by hand from its traders' outcomes, for tests of what is computed over cells.
import type { CellResult } from '../../src/backtest/cell-runner.js';
import { summarizeCell, type TraderOutcome } from '../../src/backtest/outcomes.js';

export function handMadeCell(
  index: number,
  traders: TraderOutcome[],
  values: Record<string, unknown> = {},
  periodDays = 5,
): CellResult {
  return {
    cell: { index, values, label: `cell ${index}` },
    summary: summarizeCell(traders),
    traders,
    samples: [],
    fan: [],
    prints: 0,
    periodDays,
    accountSessionDays: 0,
    missingPrints: [],
  };
}
