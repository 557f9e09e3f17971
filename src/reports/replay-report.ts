// report.html of a replayed scenario: the verdict, each expectation, orders with their status history,
// positions, fills and round-trip trades. Its size follows what a reader can take in, not the run's size: charts
// draw a fixed budget of points (chart-budget.ts), beyond CHARTED_ACCOUNTS accounts only the first CHARTS_OF_MANY
// accounts of the table (those that matter most) get a chart, and long tables show their first TABLE_ROWS rows;
// state.json keeps every number.
import { chicagoIso } from '../core/calendar/dates.js';
import type { ScenarioRun } from '../scenario/runner.js';
import type { AccountTimeline } from '../scenario/account-timeline.js';
import type { FinalState } from '../scenario/scenario-state.js';
import { withinBudget, withoutFlatRuns } from './chart-budget.js';
import { shownExpectation } from './expectation-values.js';
import { escapeHtml, htmlPage, htmlTable, SORTABLE_TABLES_SCRIPT } from './html.js';
import { withMarketMoves } from './market-moves.js';
import { SvgCharts, type ChartPainter } from './svg-chart.js';
import { CHICAGO_TIME_AXIS_LABEL, chicagoChartTime } from './time-axis.js';

/** The report of a run, its charts drawn by `painter` (ChartWorkers), or in this thread when none is given. */
export async function replayReportHtml(
  run: ScenarioRun,
  eventsSha256: string,
  painter?: ChartPainter,
): Promise<string> {
  if (painter) return reportHtml(run, eventsSha256, painter);
  const charts = new SvgCharts();
  try {
    return await reportHtml(run, eventsSha256, charts);
  } finally {
    charts.dispose();
  }
}

async function reportHtml(run: ScenarioRun, eventsSha256: string, painter: ChartPainter): Promise<string> {
  const { scenario, final } = run;
  const aliasOf = new Map(final.accounts.map((a) => [a.account_id, a.alias ?? a.account_id]));
  const who = (id: string) => aliasOf.get(id) ?? id;
  const time = (ms: unknown) => (typeof ms === 'number' ? chicagoIso(ms).replace('T', ' ').slice(0, 23) : '');
  const verdict = run.passed ? '<span class="badge pass">passed</span>' : '<span class="badge fail">failed</span>';
  const ordered = accountsThatMatterFirst(final);
  // Charts first: on worker threads they are drawn while the tables below are written.
  const charted = chartedAccounts(run, ordered);
  const fillsOf = new Map(charted.map((accountId) => [accountId, [] as FinalState['fills']]));
  for (const fill of final.fills) fillsOf.get(fill.account_id)?.push(fill);
  const charts = Promise.all(
    charted.map((accountId) => {
      const timeline = run.timelines.get(accountId)!;
      const points = withMarketMoves(timeline.points, fillsOf.get(accountId)!, run.prices);
      return equityChart(painter, who(accountId), { ...timeline, points });
    }),
  );
  const sections = [
    `<h1>${escapeHtml(scenario.name)} ${verdict}</h1>`,
    `<p class="meta">${escapeHtml(scenario.file)} · start ${escapeHtml(time(scenario.startMs))} CT · seed ${run.seed} · ${run.marketPrints.toLocaleString('en-US')} market prints replayed · events sha256 <code>${eventsSha256}</code></p>`,
    scenario.description ? `<p>${escapeHtml(scenario.description)}</p>` : '',
    '<h2>Accounts</h2>',
    final.accounts.length === 1
      ? '<p class="meta">1 account.</p>'
      : `<p class="meta">${final.accounts.length.toLocaleString('en-US')} accounts, failed first, then passed, locked and the rest; click a heading to sort.</p>`,
    htmlTable(
      [
        'account',
        'status',
        'locked',
        'starting balance',
        'balance',
        'equity',
        'max-loss trigger',
        'daily-loss trigger',
      ],
      ordered.map((a) => [
        who(a.account_id),
        a.account_status,
        a.lockout_reason ?? '',
        a.starting_balance,
        a.balance,
        a.equity,
        a.max_loss_limit_trigger,
        a.daily_loss_limit_trigger ?? '',
      ]),
      undefined,
      'sortable',
    ),
    ...chartsNote(run, charted.length),
    ...(await charts),
    '<h2>Expectations</h2>',
    htmlTable(
      ['step', 'subject', 'field', 'expected', 'actual', 'result', 'detail'],
      run.expectations.map((e) => [
        e.step,
        e.subject,
        e.field,
        ...shownExpectation(e.expected, e.actual),
        e.passed ? 'held' : 'FAILED',
        e.detail ?? '',
      ]),
      (i) => (run.expectations[i]!.passed ? 'pass' : 'fail'),
      'expectations',
    ),
    '<h2>Orders</h2>',
    firstRows(final.orders.length, 'orders'),
    htmlTable(
      [
        'order',
        'origin',
        'account',
        'instrument',
        'side',
        'type',
        'tif',
        'qty',
        'filled',
        'limit',
        'stop',
        'avg fill',
        'status',
        'history (CT)',
      ],
      final.orders
        .slice(0, TABLE_ROWS)
        .map((o) => [
          String(o.order_id).slice(0, 8),
          o.origin === 'risk' ? 'risk engine' : 'client',
          who(o.account_id),
          o.instrument_id,
          o.side,
          o.type,
          o.time_in_force,
          o.quantity,
          o.filled_quantity,
          o.limit_price ?? '',
          o.stop_price ?? '',
          o.average_fill_price ?? '',
          o.status,
          o.states.map((s) => `${time(s.occurred_at).slice(11)} ${s.status} (${s.reason ?? ''})`).join(' → '),
        ]),
      // The risk engine's orders (a flatten, a liquidation) tinted apart from the client's.
      (i) => (final.orders[i]!.origin === 'risk' ? 'risk' : 'client'),
    ),
    '<h2>Positions</h2>',
    firstRows(final.positions.length, 'positions'),
    htmlTable(
      ['account', 'instrument', 'net qty', 'average price', 'realized', 'unrealized'],
      final.positions
        .slice(0, TABLE_ROWS)
        .map((p) => [
          who(p.account_id),
          p.instrument_id,
          p.net_quantity,
          p.average_price ?? '',
          p.realized_pnl,
          p.unrealized_pnl,
        ]),
    ),
    '<h2>Fills</h2>',
    firstRows(final.fills.length, 'fills'),
    htmlTable(
      ['time (CT)', 'trade date', 'account', 'instrument', 'side', 'qty', 'price', 'commission', 'realized', 'order'],
      final.fills
        .slice(0, TABLE_ROWS)
        .map((f) => [
          time(f.occurred_at),
          f.trade_date,
          who(f.account_id),
          f.instrument_id,
          f.side,
          f.quantity,
          f.price,
          f.commission,
          f.realized_pnl,
          f.order_id ? String(f.order_id).slice(0, 8) : 'history',
        ]),
    ),
    '<h2>Trades (flat to flat)</h2>',
    firstRows(final.trades.length, 'trades'),
    htmlTable(
      ['trade', 'account', 'instrument', 'direction', 'max qty', 'opened (CT)', 'closed (CT)', 'realized', 'status'],
      final.trades
        .slice(0, TABLE_ROWS)
        .map((t) => [
          t.trade_id.slice(0, 8),
          who(t.account_id),
          t.instrument_id,
          t.direction,
          t.quantity,
          time(t.opened_at),
          time(t.closed_at),
          t.realized_pnl,
          t.status,
        ]),
    ),
  ];
  return htmlPage(`${scenario.name}: propsim replay`, sections.join('\n') + SORTABLE_TABLES_SCRIPT);
}

/** Up to this many accounts, each has a chart. */
export const CHARTED_ACCOUNTS = 24;
/**
 * Beyond CHARTED_ACCOUNTS, only this many charts: the first accounts of the table (failed, passed, locked, closest to
 * the floor). Drawing a chart is one of a replay's fixed costs, and a reader of many accounts reads the table.
 */
export const CHARTS_OF_MANY = 6;
/** Rows shown of the orders, positions, fills and trades tables. */
export const TABLE_ROWS = 500;

const STATUS_RANK: Record<string, number> = { failed: 0, passed: 1 };

/** Failed, then passed, then locked, then the rest; each group by headroom above the max-loss trigger, least first. */
function accountsThatMatterFirst(final: FinalState): FinalState['accounts'] {
  // Each account's keys once, not at every comparison: 10,000 accounts are compared ~130,000 times.
  return final.accounts
    .map((account, order) => ({
      account,
      order,
      rank: STATUS_RANK[account.account_status] ?? (account.lockout_reason ? 2 : 3),
      headroom: Number(account.equity) - Number(account.max_loss_limit_trigger),
    }))
    .sort((x, y) => x.rank - y.rank || x.headroom - y.headroom || x.order - y.order)
    .map((x) => x.account);
}

/** Every account in scenario order when they are few; else the CHARTS_OF_MANY that matter most (of `ordered`). */
function chartedAccounts(run: ScenarioRun, ordered: FinalState['accounts']): string[] {
  const withTimeline = (id: string) => run.timelines.has(id);
  if (run.final.accounts.length <= CHARTED_ACCOUNTS) return [...run.timelines.keys()];
  return ordered
    .map((a) => a.account_id)
    .filter(withTimeline)
    .slice(0, CHARTS_OF_MANY);
}

/** Says which accounts have a chart, when not every one has (nothing otherwise: the page as it was). */
function chartsNote(run: ScenarioRun, charted: number): string[] {
  if (run.final.accounts.length <= CHARTED_ACCOUNTS) return [];
  return [
    `<p class="meta">Charts of the first ${charted} accounts of the table above; state.json has every account's numbers.</p>`,
  ];
}

function firstRows(count: number, what: string): string {
  return count > TABLE_ROWS
    ? `<p class="meta">The first ${TABLE_ROWS.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} ${what}; state.json has them all.</p>`
    : '';
}

/** One line of the equity chart, held flat between points (equity and floors move in steps). */
function stepLine(name: string, color: string, style: Record<string, unknown>, data: readonly (readonly unknown[])[]) {
  return {
    name,
    type: 'line',
    step: 'end',
    showSymbol: false,
    lineStyle: { color, ...style },
    itemStyle: { color },
    data,
  };
}

/** An account's equity with its max-loss and daily-loss floors over the run; lock changes marked. */
async function equityChart(painter: ChartPainter, name: string, timeline: AccountTimeline): Promise<string> {
  if (timeline.points.length < 2) return '';
  const points = withinBudget(timeline.points);
  const t = (ms: number) => chicagoChartTime(ms);
  const equityAt = (ms: number) =>
    [...timeline.points].reverse().find((p) => p[0] <= ms)?.[1] ?? timeline.points[0]![1];
  /** A floor moves in steps: its line is drawn from them alone. */
  const floorLine = (index: 2 | 3) =>
    withoutFlatRuns(points.filter((p) => p[index] !== null).map((p) => [t(p[0]), p[index]! / 100] as const));
  const chart = await painter.render(1100, 320, {
    legend: { top: 0 },
    grid: { left: 80, right: 110, top: 36, bottom: 40 },
    xAxis: { type: 'time', axisLabel: CHICAGO_TIME_AXIS_LABEL },
    yAxis: { type: 'value', scale: true, name: 'USD' },
    series: [
      stepLine(
        'equity',
        '#1565c0',
        { width: 2 },
        points.map((p) => [t(p[0]), p[1] / 100]),
      ),
      stepLine('max-loss floor', '#c62828', { type: 'dashed' }, floorLine(2)),
      stepLine('daily-loss floor', '#ef6c00', { type: 'dotted' }, floorLine(3)),
      {
        name: 'locks',
        type: 'scatter',
        symbol: 'pin',
        symbolSize: 26,
        itemStyle: { color: '#6a1b9a' },
        // A template, not a function: the option may be drawn on another thread.
        label: { show: true, position: 'top', fontSize: 10, formatter: '{@[2]}' },
        data: timeline.marks.map(([ms, label]) => [t(ms), equityAt(ms) / 100, label]),
      },
    ],
  });
  return `<h3>${escapeHtml(name)}: equity and floors (CT)</h3>${chart}`;
}
