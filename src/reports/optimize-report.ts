// report.html of `propsim optimize` (docs/optimizing.md#outputs): the chosen plan, how stable the search's choice is,
// what its confirmation says of the constraints and against the base plan, the front of pass rate against net per
// trader (SVG, echarts SSR as every report) with the chosen and the base plan marked, and a table of how the search
// narrowed stage by stage.
import type { Estimate, Metric } from '../backtest/stats/decisions.js';
import { STABILITY_RESAMPLES } from '../backtest/optimize/choice-stability.js';
import type { OptimizeRun } from '../backtest/optimize/run-optimize.js';
import { escapeHtml, htmlPage, htmlTable } from './html.js';
import { lastEvaluations, paretoFront } from '../backtest/optimize/pareto-front.js';
import { metricText } from './optimize-words.js';
import {
  constraintsVerdict,
  outsideConstraintsWords,
  stabilityWords,
  versusBaseFigures,
  versusBaseVerdict,
} from './optimize-words.js';
import { METRIC_NAMES } from './signal-or-noise.js';
import { SvgCharts } from './svg-chart.js';
import { formatUsd } from './usd.js';

export function optimizeReportHtml(run: OptimizeRun): string {
  const charts = new SvgCharts();
  try {
    return reportHtml(run, charts);
  } finally {
    charts.dispose();
  }
}

function shown(metric: Metric, value: number): string {
  return metric === 'net_per_trader' ? formatUsd(value) : `${(value * 100).toFixed(2)}%`;
}

function withInterval(metric: Metric, e: Estimate): string {
  return `${shown(metric, e.value)} (${shown(metric, e.low)} to ${shown(metric, e.high)})`;
}

function reportHtml(run: OptimizeRun, charts: SvgCharts): string {
  const { config, confirmation: c } = run;
  const chosen = run.candidates[c.chosen]!;
  const objective = `${config.objective.direction} ${METRIC_NAMES[config.objective.metric]}`;
  const verdict = constraintsVerdict(run);
  const constraints = c.constraintsMet
    ? `<p class="signal">${escapeHtml(capitalized(verdict))}, on traders the search never saw.</p>`
    : `<p class="headline"><b>${escapeHtml(capitalized(verdict))}</b>.</p>`;
  const versus = versusBaseVerdict(run);
  const versusClass = c.versusBase.verdict === 'differs' && versus.startsWith('better') ? 'signal' : 'headline';
  const outside = outsideConstraintsWords(run);
  const checks = htmlTable(
    ['constraint', 'bound', `interval (Bonferroni, ${c.comparisons} checks)`, 'verdict'],
    c.checks.map((check) => [
      `${METRIC_NAMES[check.metric]} ${check.bound}`,
      check.metric === 'net_per_trader' ? formatUsd(Math.round(Number(check.text) * 100)) : check.text,
      `${shown(check.metric, check.interval.low)} to ${shown(check.metric, check.interval.high)}`,
      check.verdict === 'no_evidence' ? 'no evidence either way' : check.verdict,
    ]),
  );
  const confirmationTable = htmlTable(
    [
      'plan',
      ...(['pass_rate', 'fail_rate', 'net_per_trader'] as const).map((m) => `${METRIC_NAMES[m]} (95% interval)`),
    ],
    [
      [
        `#${c.chosen} ${chosen.label} (chosen)`,
        ...(['pass_rate', 'fail_rate', 'net_per_trader'] as const).map((m) => withInterval(m, c.evaluation.metrics[m])),
      ],
      [
        `base plan ${config.backtest.basePlanName}`,
        ...(['pass_rate', 'fail_rate', 'net_per_trader'] as const).map((m) => withInterval(m, c.base[m])),
      ],
    ],
  );
  const population = `${c.traders} traders (seed ${c.seed}${c.fills.length > 0 ? `, ${c.fills.length} held-out fills traders` : ''}), ${c.period.from} to ${c.period.to}`;
  const body = [
    `<h1>${escapeHtml(config.backtest.name)}: optimize</h1>`,
    `<p class="meta">${run.candidates.length} candidate plans on ${escapeHtml(config.backtest.basePlanName)}; objective: ${escapeHtml(objective)}; seed ${run.seed}; ${run.accountDays.toLocaleString('en-US')} account-session-days of a budget of ${run.budget.toLocaleString('en-US')}${run.defaultBudget ? " (the full grid's and the confirmation)" : ''}.</p>`,
    '<h2>Chosen plan</h2>',
    `<p><b>#${c.chosen}</b> ${escapeHtml(chosen.label)}: chosen on the search's traders, then confirmed on ${escapeHtml(population)}.</p>`,
    ...(outside ? [`<p class="headline">${escapeHtml(capitalized(outside))}.</p>`] : []),
    `<p class="${versusClass}">Against the current plan (${escapeHtml(config.backtest.basePlanName)}), on the same unseen traders: <b>${escapeHtml(versus)}</b>; ${escapeHtml(METRIC_NAMES[c.versusBase.metric])} ${escapeHtml(versusBaseFigures(c.versusBase))}.</p>`,
    `<p>${escapeHtml(capitalized(stabilityWords(run, STABILITY_RESAMPLES)))}.</p>`,
    constraints,
    ...(c.checks.length > 0 ? [checks] : []),
    '<h2>Confirmation</h2>',
    '<p class="meta">The chosen plan and the base plan on the confirmation population; chosen-plan.yaml back-tested with this seed, period and these traders gives these figures. The confirmation chooses nothing: the search chose the plan.</p>',
    confirmationTable,
    '<h2>Pass rate against net per trader</h2>',
    frontChart(run, charts),
    '<h2>How the search narrowed</h2>',
    narrowing(run),
  ].join('\n');
  return htmlPage(`${config.backtest.name}: optimize`, body);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function frontChart(run: OptimizeRun, charts: SvgCharts): string {
  const last = lastEvaluations(run);
  const point = (e: { metrics: Record<Metric, Estimate> }) => [
    +(e.metrics.pass_rate.value * 100).toFixed(2),
    e.metrics.net_per_trader.value / 100,
  ];
  const chosen = run.confirmation.evaluation;
  return (
    '<p class="meta">Grey: each candidate at its last search stage; blue: the front (no other candidate has both a higher pass rate and a higher net per trader); green: the chosen plan and black: the base plan, both on the confirmation population.</p>' +
    charts.render(900, 420, {
      grid: { left: 80, right: 30, top: 40, bottom: 60 },
      legend: { top: 0 },
      xAxis: { type: 'value', name: 'pass rate (%)', nameLocation: 'middle', nameGap: 30, scale: true },
      yAxis: { type: 'value', name: 'net per trader ($)', scale: true },
      series: [
        { name: 'candidates', type: 'scatter', data: last.map(point), itemStyle: { color: '#9e9e9e' } },
        {
          name: 'front',
          type: 'line',
          data: paretoFront(last).map(point),
          itemStyle: { color: '#1565c0' },
          symbolSize: 8,
        },
        {
          name: 'chosen (confirmation)',
          type: 'scatter',
          data: [point(chosen)],
          symbol: 'diamond',
          symbolSize: 16,
          itemStyle: { color: '#2e7d32' },
        },
        {
          name: 'base plan (confirmation)',
          type: 'scatter',
          data: [point({ metrics: run.confirmation.base })],
          symbol: 'triangle',
          symbolSize: 14,
          itemStyle: { color: '#1d2433' },
        },
      ],
    })
  );
}

function narrowing(run: OptimizeRun): string {
  const metric = run.config.objective.metric;
  const rows = run.stages.map((s) => {
    const best = s.evaluations.find((e) => e.candidate === s.verdict.ranked[0])!;
    return [
      s.stage,
      s.evaluations.length,
      s.traders,
      s.verdict.kept.length,
      s.verdict.overBudget.length,
      s.verdict.dropped.length,
      s.accountDays.toLocaleString('en-US'),
      `#${best.candidate}: ${withInterval(metric, best.metrics[metric])}`,
    ];
  });
  const c = run.confirmation;
  rows.push([
    'confirmation',
    '1 and the base plan',
    c.traders,
    1,
    0,
    0,
    c.accountDays.toLocaleString('en-US'),
    `#${c.chosen} (chosen): ${metricText(metric, c.evaluation.metrics[metric].value)}`,
  ]);
  return htmlTable(
    [
      'stage',
      'candidates',
      'traders each',
      'kept (not clearly beaten)',
      'cut for the budget',
      'dropped (outside a constraint)',
      'account-days',
      `best by ${METRIC_NAMES[metric]}`,
    ],
    rows,
  );
}
