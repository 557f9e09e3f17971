// report.html of a replayed scenario: the verdict, each expectation, orders with their status history,
// positions, fills and round-trip trades.
import { chicagoIso } from '../core/calendar/dates.js';
import type { ScenarioRun } from '../scenario/runner.js';
import { escapeHtml, htmlPage, htmlTable } from './html.js';

export function replayReportHtml(run: ScenarioRun, eventsSha256: string): string {
  const { scenario, final } = run;
  const aliasOf = new Map(final.accounts.map((a) => [a.account_id, a.alias ?? a.account_id]));
  const who = (id: unknown) => String(aliasOf.get(id) ?? id);
  const time = (ms: unknown) => (typeof ms === 'number' ? chicagoIso(ms).replace('T', ' ').slice(0, 23) : '');
  const verdict = run.passed ? '<span class="badge pass">passed</span>' : '<span class="badge fail">failed</span>';
  const sections = [
    `<h1>${escapeHtml(scenario.name)} ${verdict}</h1>`,
    `<p class="meta">${escapeHtml(scenario.file)} · start ${escapeHtml(time(scenario.startMs))} CT · seed ${run.seed} · ${run.marketPrints.toLocaleString('en-US')} market prints replayed · events sha256 <code>${eventsSha256}</code></p>`,
    scenario.description ? `<p>${escapeHtml(scenario.description)}</p>` : '',
    '<h2>Expectations</h2>',
    htmlTable(
      ['step', 'subject', 'field', 'expected', 'actual', 'result'],
      run.expectations.map((e) => [e.step, e.subject, e.field, JSON.stringify(e.expected), JSON.stringify(e.actual), e.passed ? 'held' : 'FAILED']),
      (i) => (run.expectations[i]!.passed ? 'pass' : 'fail'),
    ),
    '<h2>Accounts</h2>',
    htmlTable(['account', 'starting balance', 'balance', 'equity'], final.accounts.map((a) => [who(a.account_id), a.starting_balance, a.balance, a.equity])),
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
        (o.states as Array<Record<string, unknown>>).map((s) => `${time(s.occurred_at).slice(11)} ${s.status} (${s.reason})`).join(' → '),
      ]),
    ),
    '<h2>Positions</h2>',
    htmlTable(
      ['account', 'instrument', 'net qty', 'average price', 'realized', 'unrealized', 'commission'],
      final.positions.map((p) => [who(p.account_id), p.instrument_id, p.net_quantity, p.average_price ?? '', p.realized_pnl, p.unrealized_pnl, p.commission]),
    ),
    '<h2>Fills</h2>',
    htmlTable(
      ['time (CT)', 'trade date', 'account', 'instrument', 'side', 'qty', 'price', 'commission', 'realized', 'order'],
      final.fills.map((f) => [time(f.occurred_at), f.trade_date, who(f.account_id), f.instrument_id, f.side, f.quantity, f.price, f.commission, f.realized_pnl, f.order_id ? String(f.order_id).slice(0, 8) : 'history']),
    ),
    '<h2>Trades (flat to flat)</h2>',
    htmlTable(
      ['trade', 'account', 'instrument', 'side', 'max qty', 'opened (CT)', 'closed (CT)', 'realized', 'lots'],
      final.trades.map((t) => [String(t.trade_id).slice(0, 8), who(t.account_id), t.instrument_id, t.side, t.quantity, time(t.opened_at), time(t.closed_at), t.realized_pnl, (t.lots as unknown[]).length]),
    ),
  ];
  return htmlPage(`${scenario.name}: propsim replay`, sections.join('\n'));
}
