// The outcome comparison in words (docs/backtesting.md#outcomes-under-a-plan): the two groups' first outcomes
// and fail incidence by day as a table, the verdict of the exact test, and what the run could have seen.
import { SIGNIFICANCE } from '../backtest/stats/statistics.js';
import { pText } from '../reports/signal-or-noise.js';
import { formatTable } from '../reports/text-table.js';
import type { GroupOutcomes, PlanOutcomes } from './plan-outcomes.js';
import { detectableShareDifference, heldOutFor } from './share-power.js';

/** The difference in the failure share the power sentence asks about: 10 points. */
const ASKED_DIFFERENCE = 0.1;

const OUTCOMES = ['passed', 'failed', 'open'] as const;

function percent(part: number, whole: number): string {
  return `${whole === 0 ? '-' : ((100 * part) / whole).toFixed(1)} %`;
}

/** Days 5 and 10 and the last, those in the period. */
export function incidenceDays(days: number): number[] {
  return [...new Set([5, 10, days])].filter((d) => d >= 1 && d <= days).sort((a, b) => a - b);
}

function traders(n: number, what: string): string {
  return `${n} ${what} trader${n === 1 ? '' : 's'}`;
}

/** What was back-tested: the plan (`where` says where its file is), the period, the two groups. */
export function outcomeHeading(o: PlanOutcomes, period: { from: string; to: string }, where: string): string {
  const idle = o.idle === 0 ? '' : `; ${traders(o.idle, 'held-out')} left out, with no fill in the period`;
  return (
    `outcomes under ${o.plan.name} (${where}), ${period.from} to ${period.to} (${o.days} trade dates), each trader's ` +
    `first evaluation: ${traders(o.heldOut.traders, 'held-out')} replaying their own fills, and the kinds grown to ` +
    `${traders(o.kinds.traders, 'synthetic')}${idle}`
  );
}

/** Counts and shares of each first outcome, then the cumulative fail incidence at a few days; one column a group. */
export function outcomeTable(o: PlanOutcomes): string {
  const groups: GroupOutcomes[] = [o.heldOut, o.kinds];
  const rows = [
    ...OUTCOMES.map((outcome) => [
      outcome === 'open' ? 'open at the end' : outcome,
      ...groups.map((g) => `${g[outcome]} (${percent(g[outcome], g.traders)})`),
    ]),
    ...incidenceDays(o.days).map((day) => [
      `failed by day ${day}${day === o.days ? ' (the last)' : ''}`,
      ...groups.map((g) => percent(g.failedByDay[day - 1]!, 1)),
    ]),
  ];
  return formatTable(['first evaluation', 'held-out traders', 'synthetic kinds'], rows);
}

function reproduces(o: PlanOutcomes): boolean {
  return o.p >= SIGNIFICANCE;
}

/** "passed 4.0 % against 5.0 %, failed …, open …": the kinds' share first. */
function sharesAgainst(o: PlanOutcomes): string {
  return OUTCOMES.map(
    (outcome) =>
      `${outcome} ${percent(o.kinds[outcome], o.kinds.traders)} against ${percent(o.heldOut[outcome], o.heldOut.traders)}`,
  ).join(', ');
}

function pWords(p: number): string {
  return `p ${p < 0.0001 ? '' : '= '}${pText(p)}`;
}

/** The verdict: do the kinds' first outcomes differ from the held-out traders'? */
export function outcomeVerdict(o: PlanOutcomes): string {
  return reproduces(o)
    ? `the kinds reproduce the held-out traders' outcomes: ${sharesAgainst(o)} (${pWords(o.p)}, no evidence of a difference)`
    : `the kinds do not reproduce the held-out traders' outcomes: ${sharesAgainst(o)} (${pWords(o.p)})`;
}

/** The verdict in one line for the kinds file's header, so that it travels with the kinds. */
export function outcomeSummary(o: PlanOutcomes, period: { from: string; to: string }): string {
  const verdict = reproduces(o) ? 'reproduce' : 'do not reproduce';
  return `under ${o.plan.name}, ${period.from} to ${period.to}, the kinds ${verdict} the ${o.heldOut.traders} held-out traders' first outcomes: ${sharesAgainst(o)} (${pWords(o.p)})`;
}

/** What the run could have seen in the failure share, and the held-out traders a 10-point difference needs. */
export function powerWords(o: PlanOutcomes): string {
  const { heldOut, kinds } = o;
  const pooled = (heldOut.failed + kinds.failed) / (heldOut.traders + kinds.traders);
  const seen = detectableShareDifference(pooled, heldOut.traders, kinds.traders);
  const groups = `with ${traders(heldOut.traders, 'held-out')} and ${kinds.traders} synthetic`;
  if (seen >= 1) return `${groups} this cannot tell any difference in the failure share`;
  const points = `${Math.ceil(100 * seen)} points (80 % power at 0.05)`;
  if (seen <= ASKED_DIFFERENCE) return `${groups} this tells differences in the failure share of about ${points}`;
  const ratio = kinds.traders / heldOut.traders;
  const needed = heldOutFor(ASKED_DIFFERENCE, pooled, ratio);
  return `${groups} this cannot tell differences in the failure share under about ${points}; about ${needed} held-out traders, with ${formatRatio(ratio)} synthetic to each, would tell 10`;
}

function formatRatio(ratio: number): string {
  return Number.isInteger(ratio) ? String(ratio) : ratio.toFixed(1);
}
