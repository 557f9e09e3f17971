// report.html of a replayed scenario: the verdict, each expectation, orders with their status history,
// positions, fills and round-trip trades.
import { chicagoIso } from '../core/calendar/dates.js';
import type { ScenarioRun } from '../scenario/runner.js';
import type { AccountTimeline } from '../scenario/account-timeline.js';
import { escapeHtml, htmlPage, htmlTable } from './html.js';
import { renderSvg } from './svg-chart.js';
import { chicagoChartTime } from './time-axis.js';

export function replayReportHtml(run: ScenarioRun, eventsSha256: string): string {
  const { scenario, final } = run;
  const aliasOf = new Map(final.accounts.map((a) => [a.account_id, a.alias ?? a.account_id]));
  const who = (id: string) => aliasOf.get(id) ?? id;
  const time = (ms: unknown) => (typeof ms === 'number' ? chicagoIso(ms).replace('T', ' ').slice(0, 23) : '');
  const verdict = run.passed ? '<span class="badge pass">passed</span>' : '<span class="badge fail">failed</span>';
  const sections = [
    `<h1>${escapeHtml(scenario.name)} ${verdict}</h1>`,
    `<p class="meta">${escapeHtml(scenario.file)} · start ${escapeHtml(time(scenario.startMs))} CT · seed ${run.seed} · ${run.marketPrints.toLocaleString('en-US')} market prints replayed · events sha256 <code>${eventsSha256}</code></p>`,
    scenario.description ? `<p>${escapeHtml(scenario.description)}</p>` : '',
    '<h2>Accounts</h2>',
    htmlTable(
      ['account', 'status', 'locked', 'starting balance', 'balance', 'equity', 'max-loss trigger', 'daily-loss trigger'],
      final.accounts.map((a) => [who(a.account_id), a.account_status, a.lockout_reason ?? '', a.starting_balance, a.balance, a.equity, a.max_loss_limit_trigger, a.daily_loss_limit_trigger ?? '']),
    ),
    ...[...run.timelines].map(([accountId, timeline]) => equityChart(who(accountId), timeline)),
    '<h2>Expectations</h2>',
    htmlTable(
      ['step', 'subject', 'field', 'expected', 'actual', 'result'],
      run.expectations.map((e) => [e.step, e.subject, e.field, JSON.stringify(e.expected), JSON.stringify(e.actual), e.passed ? 'held' : 'FAILED']),
      (i) => (run.expectations[i]!.passed ? 'pass' : 'fail'),
    ),
    '<h2>Orders</h2>',
    htmlTable(
      ['order', 'account', 'instrument', 'side', 'type', 'tif', 'qty', 'filled', 'limit', 'stop', 'avg fill', 'status', 'history (CT)'],
      final.orders.map((o) => [
        String(o.order_id).slice(0, 8),
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
    ),
    '<h2>Positions</h2>',
    htmlTable(
      ['account', 'instrument', 'net qty', 'average price', 'realized', 'unrealized'],
      final.positions.map((p) => [who(p.account_id), p.instrument_id, p.net_quantity, p.average_price ?? '', p.realized_pnl, p.unrealized_pnl]),
    ),
    '<h2>Fills</h2>',
    htmlTable(
      ['time (CT)', 'trade date', 'account', 'instrument', 'side', 'qty', 'price', 'commission', 'realized', 'order'],
      final.fills.map((f) => [time(f.occurred_at), f.trade_date, who(f.account_id), f.instrument_id, f.side, f.quantity, f.price, f.commission, f.realized_pnl, f.order_id ? String(f.order_id).slice(0, 8) : 'history']),
    ),
    '<h2>Trades (flat to flat)</h2>',
    htmlTable(
      ['trade', 'account', 'instrument', 'direction', 'max qty', 'opened (CT)', 'closed (CT)', 'realized', 'status'],
      final.trades.map((t) => [t.trade_id.slice(0, 8), who(t.account_id), t.instrument_id, t.direction, t.quantity, time(t.opened_at), time(t.closed_at), t.realized_pnl, t.status]),
    ),
  ];
  return htmlPage(`${scenario.name}: propsim replay`, sections.join('\n'));
}

/** An account's equity with its max-loss and daily-loss floors over the run; lock changes marked. */
function equityChart(name: string, timeline: AccountTimeline): string {
  if (timeline.points.length < 2) return '';
  const t = (ms: number) => chicagoChartTime(ms);
  const equityAt = (ms: number) => [...timeline.points].reverse().find((p) => p[0] <= ms)?.[1] ?? timeline.points[0]![1];
  const chart = renderSvg(1100, 320, {
    legend: { top: 0 },
    grid: { left: 80, right: 110, top: 36, bottom: 40 },
    xAxis: { type: 'time', axisLabel: { formatter: '{MM}-{dd} {HH}:{mm}' } },
    yAxis: { type: 'value', scale: true, name: 'USD' },
    series: [
      { name: 'equity', type: 'line', step: 'end', showSymbol: false, lineStyle: { color: '#1565c0', width: 2 }, itemStyle: { color: '#1565c0' }, data: timeline.points.map((p) => [t(p[0]), p[1] / 100]) },
      { name: 'max-loss floor', type: 'line', step: 'end', showSymbol: false, lineStyle: { color: '#c62828', type: 'dashed' }, itemStyle: { color: '#c62828' }, data: timeline.points.map((p) => [t(p[0]), p[2] / 100]) },
      { name: 'daily-loss floor', type: 'line', step: 'end', showSymbol: false, lineStyle: { color: '#ef6c00', type: 'dotted' }, itemStyle: { color: '#ef6c00' }, data: timeline.points.filter((p) => p[3] !== null).map((p) => [t(p[0]), p[3]! / 100]) },
      {
        name: 'locks',
        type: 'scatter',
        symbol: 'pin',
        symbolSize: 26,
        itemStyle: { color: '#6a1b9a' },
        label: { show: true, position: 'top', fontSize: 10, formatter: (p: { data: unknown[] }) => String(p.data[2]) },
        data: timeline.marks.map(([ms, label]) => [t(ms), equityAt(ms) / 100, label]),
      },
    ],
  });
  return `<h3>${escapeHtml(name)}: equity and floors (CT)</h3>${chart}`;
}
