// The report's "Outcomes and their causes per cell" (docs/backtesting.md#reading-reporthtml): each cell's accounts
// stacked by cause, a failure by the rule that failed it. A rule other than max loss is drawn only when some cell's
// plan turns it on, or some account failed by it: a grid without a time limit carries no always-empty time_limit
// series, and a rule added to FAILURE_RULES later shows up by itself, in a colour of its own.
import { FAILURE_RULES, planFailureRules, type FailureRule } from '../core/accounts/failure-rules.js';
import { parsePlanTemplate } from '../core/accounts/plans.js';
import { CAUSES, type Cause } from '../backtest/cells/outcomes.js';
import { planForCell, splitCellValues } from '../backtest/config/grid.js';
import type { BacktestRun } from '../backtest/run-backtest.js';
import type { SvgCharts } from './svg-chart.js';

const CAUSE_COLORS: Partial<Record<Cause, string>> = {
  passed: '#2e7d32',
  max_loss_breach: '#c62828',
  daily_loss_failure: '#ad1457',
  time_limit: '#4e342e',
  profit_target_not_reached: '#9e9e9e',
  min_trading_days_not_met: '#f9a825',
  consistency_not_met: '#6a1b9a',
};

/** Reds and browns for rules that have no colour above yet, in the order of CAUSES. */
const MORE_RULE_COLORS = ['#e65100', '#880e4f', '#bf360c', '#3e2723', '#b71c1c', '#6d4c41'];

const ALWAYS_SHOWN: ReadonlySet<Cause> = new Set(['passed', 'max_loss_breach']);

/** The causes the chart draws, in the order of CAUSES. */
export function shownCauses(run: BacktestRun): Cause[] {
  const enabled = new Set<FailureRule>();
  for (const { cell } of run.cells) {
    const plan = planForCell(run.config.basePlan, splitCellValues(cell.values).evaluation);
    for (const rule of planFailureRules(parsePlanTemplate(plan, `grid cell ${cell.label}`))) enabled.add(rule);
  }
  const counted = (cause: Cause) => run.cells.some((c) => c.summary.causes[cause] > 0);
  const isRule = (cause: Cause): cause is FailureRule => (FAILURE_RULES as readonly string[]).includes(cause);
  return CAUSES.filter((cause) => ALWAYS_SHOWN.has(cause) || !isRule(cause) || enabled.has(cause) || counted(cause));
}

function colorOf(cause: Cause): string {
  const known = CAUSE_COLORS[cause];
  if (known !== undefined) return known;
  const unnamed = CAUSES.filter((c) => CAUSE_COLORS[c] === undefined);
  return MORE_RULE_COLORS[unnamed.indexOf(cause) % MORE_RULE_COLORS.length]!;
}

/** The stacked bars, one per cell. */
export function causesChart(run: BacktestRun, charts: SvgCharts): string {
  const { cells } = run;
  const causes = shownCauses(run);
  // About six names fit a legend row across 900 px; the plot, with the axis name above it, starts below the rows.
  const below = 34 * (Math.ceil(causes.length / 6) - 1);
  return charts.render(900, 360 + below, {
    tooltip: {},
    legend: { top: 0, textStyle: { fontSize: 11 } },
    grid: { left: 60, right: 40, top: 52 + below, bottom: 40 },
    xAxis: { type: 'category', data: cells.map((c) => `#${c.cell.index}`), name: 'cell' },
    yAxis: { type: 'value', name: 'accounts' },
    series: causes.map((cause) => ({
      name: cause,
      type: 'bar',
      stack: 'all',
      itemStyle: { color: colorOf(cause) },
      data: cells.map((c) => c.summary.causes[cause]),
    })),
  });
}
