// The simulation against the firm's records, as the outputs say it (docs/backtesting.md#validation-against-the-firms-records):
// validation.csv (a row per trader), summary.json `validation`, and report.html's section, which leads with the
// agreement and says that only the reference cell, the plan the traders traded, is validated.
import { chicagoIso } from '../core/calendar/dates.js';
import { toCents } from '../core/validation/input-fields.js';
import type {
  Divergence,
  SimulatedTrader,
  TraderValidation,
  ValidationSummary,
} from '../backtest/validation/compare-records.js';
import { csv } from './csv.js';
import { htmlTable } from './html.js';
import { formatUsd } from './usd.js';

export const VALIDATION_COLUMNS = [
  'trader',
  'actual_outcome',
  'actual_date',
  'simulated_outcome',
  'simulated_date',
  'outcome_match',
  'date_match',
  'first_divergence',
] as const;

export function validationCsv(rows: readonly TraderValidation[]): string {
  return csv(
    VALIDATION_COLUMNS,
    rows.map((r) => [
      r.trader,
      r.actual.outcome,
      r.actual.date,
      r.simulated.outcome,
      r.simulated.date,
      r.outcomeMatch,
      r.dateMatch,
      r.divergence ? divergenceWords(r.divergence) : '',
    ]),
  );
}

/** summary.json `validation`: shares with four places, the confusion of actual against simulated outcomes. */
export function validationDocument(summary: ValidationSummary, reference: number): Record<string, unknown> {
  return {
    reference_cell: reference,
    traders: summary.traders,
    outcome_agreement: summary.outcomeAgreement.toFixed(4),
    date_agreement: summary.dateAgreement.toFixed(4),
    confusion: { actual: summary.confusion },
  };
}

/** "2024-01-17 10:42 CT": a time as the divergence names it. */
function ct(timeMs: number): string {
  const iso = chicagoIso(timeMs);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} CT`;
}

function recordedWords({ outcome, date }: { outcome: string; date: string | null }): string {
  return outcome === 'open' ? 'still open at the end of the period' : `${outcome} on ${date}`;
}

/** The kernel's "equity 47980.00 at or below the max-loss trigger 48000.00" as "at $47,980.00 (max-loss floor $48,000.00)". */
function breachWords(reason: string): string {
  const match = /^equity (-?\d+(?:\.\d+)?) at or below the (max-loss|daily-loss) trigger (-?\d+(?:\.\d+)?)/.exec(
    reason,
  );
  if (!match) return `(${reason})`;
  const usd = (x: string) => formatUsd(toCents(x, 'amount'));
  return `at ${usd(match[1]!)} (${match[2]} floor ${usd(match[3]!)})`;
}

/**
 * A simulated failure in words: a floor crossed (max loss, or a daily loss that fails) with its equity and floor,
 * any other rule by its name and the kernel's reason: "simulated time_limit at 2024-01-19 17:00 CT (the time limit …)".
 */
function failureWords(failure: SimulatedTrader['failures'][number]): string {
  const floor =
    failure.rule === undefined || failure.rule === 'max_loss_breach' || failure.rule === 'daily_loss_failure';
  return floor
    ? `simulated floor crossed at ${ct(failure.atMs)} ${breachWords(failure.reason)}`
    : `simulated ${failure.rule} at ${ct(failure.atMs)} (${failure.reason})`;
}

/** The first divergence in words: "simulated floor crossed at 2024-01-17 10:42 CT at $47,980.00 …; the records say …". */
export function divergenceWords(d: Divergence): string {
  switch (d.kind) {
    case 'simulated_failure':
      return `${failureWords(d.failure)}; the records say ${recordedWords(d.recorded)}`;
    case 'simulated_pass':
      return `simulated passed on ${d.date}; the records say ${recordedWords(d.recorded)}`;
    case 'recorded_first': {
      const simulated =
        d.simulated.outcome === 'open'
          ? `the simulation was still open at the end${d.unmet ? ` (${d.unmet.replaceAll('_', ' ')})` : ''}`
          : `the simulation ${d.simulated.outcome} later, on ${d.simulated.date}`;
      return `the records say ${recordedWords(d.recorded)}; ${simulated}`;
    }
    case 'resets':
      return `outcome and date agree; resets: simulated ${d.simulated}, the records ${d.recorded}`;
    case 'payouts':
      return `outcome and date agree; payouts: simulated ${formatUsd(d.simulatedCents)}, the records ${formatUsd(d.recordedCents)}`;
  }
}

/** report.html's section: the agreement first, the confusion table, then each trader that diverged. */
export function validationSection(
  rows: readonly TraderValidation[],
  summary: ValidationSummary,
  reference: number,
  cells: number,
): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const outcomes = ['passed', 'failed', 'open'] as const;
  const mismatches = rows.filter((r) => r.divergence);
  return [
    "<h2>Validation against the firm's records</h2>",
    `<p class="headline">The simulation of cell #${reference}, the plan the traders traded, agrees with the records on the outcome of <b>${pct(summary.outcomeAgreement)}</b> of ${summary.traders.toLocaleString('en-US')} traders, and on its date for ${pct(summary.dateAgreement)}.</p>`,
    `<p class="meta">${cells > 1 ? `Only cell #${reference} is validated: the other ${cells - 1} cells are counterfactuals, plans the traders did not trade, with no records to compare. ` : ''}Resets come from the records, not from draws. A row of the table is a recorded outcome, a column the simulated one.</p>`,
    htmlTable(
      ['records \\ simulation', ...outcomes],
      outcomes.map((actual) => [actual, ...outcomes.map((s) => summary.confusion[actual][s].toLocaleString('en-US'))]),
    ),
    mismatches.length === 0
      ? '<p>Every trader agrees with the records.</p>'
      : `<p>Where ${mismatches.length === 1 ? 'one trader parts' : `${mismatches.length} traders part`} from the records (validation.csv has every trader):</p>` +
        htmlTable(
          ['trader', 'records', 'simulation', 'first divergence'],
          mismatches.map((r) => [
            r.trader,
            recordedWords(r.actual),
            recordedWords(r.simulated),
            divergenceWords(r.divergence!),
          ]),
        ),
  ];
}
