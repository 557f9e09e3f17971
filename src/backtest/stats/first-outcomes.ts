// Each cell's first evaluations in time (docs/backtesting.md#outcomes-in-time): the cumulative incidence of pass and
// of fail by trade date, the accounts still open at the period's end counted as followed to it (censored), not
// dropped; and how many were still open.
import type { CellResult } from '../cells/cell-runner.js';
import { cumulativeIncidence, type Followed, type IncidencePoint } from './incidence.js';

export function cellIncidence(cell: CellResult): IncidencePoint[] {
  const followed = cell.traders.map((t): Followed =>
    t.firstOutcome === 'open'
      ? { event: 'censored', day: cell.periodDays }
      : { event: t.firstOutcome === 'passed' ? 'pass' : 'fail', day: t.firstOutcomeDay! },
  );
  return cumulativeIncidence(followed, cell.periodDays);
}

/** First evaluations still open at the end of the period. */
export function openAtEnd(cell: CellResult): number {
  return cell.traders.filter((t) => t.firstOutcome === 'open').length;
}
