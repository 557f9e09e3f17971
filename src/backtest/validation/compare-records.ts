// The simulation against a firm's records, trader by trader (docs/backtesting.md#validation-against-the-firms-records):
// whether the outcome and its date agree, and for a trader that does not, the first point where the two part: the
// earlier of the simulation's deciding event (a floor crossed, a pass at a roll) and the records' outcome; with both
// agreeing, resets and then payouts. Data only; reports/validation-outputs.ts puts it in words.
import type { FailureRule } from '../../core/accounts/failure-rules.js';
import type { RecordedOutcome, TraderRecord } from './records-file.js';

/** What the simulation of one trader under the plan they traded came to. */
export interface SimulatedTrader {
  trader: string;
  outcome: RecordedOutcome;
  /** The trade date it passed or failed on; null while open. */
  date: string | null;
  resets: number;
  payoutsCents: number;
  /**
   * Each evaluation account's failure, in time order (the last one decides a failed outcome): when, on which trade
   * date, the kernel's reason and the rule that failed it (docs/risk-rules.md#statuses-and-locks).
   */
  failures: ReadonlyArray<{ atMs: number; tradeDate: string; reason: string; rule?: FailureRule }>;
  /** While open: the first passing criterion still unmet. */
  unmet?: string;
}

export type Divergence =
  /** The simulation failed an evaluation before the records' outcome (or the records have none). */
  | { kind: 'simulated_failure'; failure: SimulatedTrader['failures'][number]; recorded: Recorded }
  /** The simulation passed before the records' outcome (or the records have none). */
  | { kind: 'simulated_pass'; date: string; recorded: Recorded }
  /** The records' outcome came first: the simulation was still trading then. */
  | { kind: 'recorded_first'; recorded: Recorded; simulated: Recorded; unmet?: string }
  | { kind: 'resets'; simulated: number; recorded: number }
  | { kind: 'payouts'; simulatedCents: number; recordedCents: number };

export interface Recorded {
  outcome: RecordedOutcome;
  date: string | null;
}

export interface TraderValidation {
  trader: string;
  actual: Recorded;
  simulated: Recorded;
  outcomeMatch: boolean;
  dateMatch: boolean;
  /** Undefined when everything the records say agrees. */
  divergence?: Divergence;
}

/** One trader: the records against the simulation; `resets` compared only when the config has resets to buy. */
export function compareWithRecords(
  record: TraderRecord,
  simulated: SimulatedTrader,
  options: { resets: boolean },
): TraderValidation {
  const actual = { outcome: record.outcome, date: record.date };
  const sim = { outcome: simulated.outcome, date: simulated.date };
  const outcomeMatch = actual.outcome === sim.outcome;
  const dateMatch = outcomeMatch && actual.date === sim.date;
  const base = { trader: record.trader, actual, simulated: sim, outcomeMatch, dateMatch };
  const divergence = dateMatch ? laterDivergence(record, simulated, options) : outcomeDivergence(actual, simulated);
  return divergence === undefined ? base : { ...base, divergence };
}

/**
 * Where outcome or date part: the simulation's deciding event (its last evaluation's failure, or the pass) against
 * the records' outcome, whichever came first. On one trade date a failure (during the session) comes before a pass
 * (at the roll after it).
 */
function outcomeDivergence(actual: Recorded, simulated: SimulatedTrader): Divergence {
  const never = '9999-12-31';
  const recordedDate = actual.date ?? never;
  const simulatedDate = simulated.date ?? never;
  const simulatedFirst =
    simulated.outcome === 'failed'
      ? simulatedDate < recordedDate || (simulatedDate === recordedDate && actual.outcome !== 'failed')
      : simulated.outcome === 'passed' && simulatedDate < recordedDate;
  if (simulatedFirst && simulated.outcome === 'failed')
    return { kind: 'simulated_failure', failure: simulated.failures[simulated.failures.length - 1]!, recorded: actual };
  if (simulatedFirst) return { kind: 'simulated_pass', date: simulated.date!, recorded: actual };
  return {
    kind: 'recorded_first',
    recorded: actual,
    simulated: { outcome: simulated.outcome, date: simulated.date },
    ...(simulated.unmet === undefined ? {} : { unmet: simulated.unmet }),
  };
}

/** With the outcome and its date agreeing: resets, then payouts, when the records give them. */
function laterDivergence(record: TraderRecord, simulated: SimulatedTrader, options: { resets: boolean }) {
  if (options.resets && record.resets !== undefined && record.resets !== simulated.resets)
    return { kind: 'resets' as const, simulated: simulated.resets, recorded: record.resets };
  if (record.payoutsCents !== undefined && record.payoutsCents !== simulated.payoutsCents)
    return { kind: 'payouts' as const, simulatedCents: simulated.payoutsCents, recordedCents: record.payoutsCents };
  return undefined;
}

export interface ValidationSummary {
  traders: number;
  outcomeAgreement: number;
  dateAgreement: number;
  /** Traders by actual outcome, then by simulated outcome. */
  confusion: Record<RecordedOutcome, Record<RecordedOutcome, number>>;
}

export function summarizeValidation(rows: readonly TraderValidation[]): ValidationSummary {
  const outcomes = ['passed', 'failed', 'open'] as const;
  const confusion = Object.fromEntries(
    outcomes.map((a) => [a, Object.fromEntries(outcomes.map((s) => [s, 0]))]),
  ) as ValidationSummary['confusion'];
  for (const row of rows) confusion[row.actual.outcome][row.simulated.outcome]++;
  const share = (count: number) => (rows.length === 0 ? 0 : count / rows.length);
  return {
    traders: rows.length,
    outcomeAgreement: share(rows.filter((r) => r.outcomeMatch).length),
    dateAgreement: share(rows.filter((r) => r.dateMatch).length),
    confusion,
  };
}
