// `propsim report daily-positions` output: the daily position records (docs/order-lifecycle.md#daily-position-records)
// as CSV, as the JSON body of GET /v1/accounts/{id}/positions/daily ({"items": [...]}) or as a small static HTML page.
// Each record gains two columns after the API's six, so that it reconciles with the balance
// (docs/scenarios.md#reconciling-with-the-balance): commissions, and net_realized_pnl = realized_pnl - commissions.
// They come last: scripts that read the first six columns by position keep working.
import { DAILY_POSITION_FIELDS, type DailyPositionRecord } from '../core/kernel/read/daily-positions.js';
import { formatCents, parseCents } from '../core/money.js';
import { escapeHtml, htmlPage, htmlTable } from './html.js';

/** A record of the report: the API's record and the commissions of its trade date, and realized net of them. */
export type DailyPositionRow = DailyPositionRecord & { commissions: string; net_realized_pnl: string };

export const DAILY_POSITION_REPORT_FIELDS = [...DAILY_POSITION_FIELDS, 'commissions', 'net_realized_pnl'] as const;

/** The records with their commissions (`${instrument_id}|${trade_date}` -> cents; none: 0.00) and net realized. */
export function withCommissions(
  records: readonly DailyPositionRecord[],
  commissionCents: ReadonlyMap<string, number>,
): DailyPositionRow[] {
  return records.map((record) => {
    const commissions = commissionCents.get(`${record.instrument_id}|${record.trade_date}`) ?? 0;
    const net = parseCents(record.realized_pnl, 'realized_pnl') - commissions;
    return { ...record, commissions: formatCents(commissions), net_realized_pnl: formatCents(net) };
  });
}

export type DailyPositionsFormat = 'csv' | 'json' | 'html';
export const DAILY_POSITIONS_FORMATS: readonly DailyPositionsFormat[] = ['csv', 'json', 'html'];

/** What the HTML page says about where its records come from. */
export interface DailyPositionsContext {
  /** The run folder as the user named it. */
  run: string;
  /** Scenario name from state.json, when known. */
  scenario?: string;
  accountId: string;
  alias: string | null;
  fromDate: string;
  toDate: string;
  instrumentId?: string;
}

/** CSV with a header line; a flat position's average_price is an empty cell. */
export function dailyPositionsCsv(records: readonly DailyPositionRow[]): string {
  const lines = [DAILY_POSITION_REPORT_FIELDS.join(',')];
  for (const record of records)
    lines.push(DAILY_POSITION_REPORT_FIELDS.map((field) => csvCell(record[field] ?? null)).join(','));
  return lines.join('\n') + '\n';
}

/**
 * The interface's response body: an object with items, an array of daily position records, each with the two
 * reconciling fields added. Unlike the API, which leaves average_price out when flat, this file has always written
 * it as null, and scripts read it that way.
 */
export function dailyPositionsJson(records: readonly DailyPositionRow[]): string {
  const items = records.map((r) =>
    Object.fromEntries(DAILY_POSITION_REPORT_FIELDS.map((field) => [field, r[field] ?? null])),
  );
  return JSON.stringify({ items }, null, 2) + '\n';
}

export function dailyPositionsHtml(records: readonly DailyPositionRow[], context: DailyPositionsContext): string {
  const who = context.alias === null ? context.accountId : `${context.alias} (${context.accountId})`;
  const title = `Daily positions: ${context.alias ?? context.accountId}, ${context.fromDate} to ${context.toDate}`;
  const rows = records.map((r) => DAILY_POSITION_REPORT_FIELDS.map((field) => r[field] ?? '—'));
  const meta = [
    `Account ${escapeHtml(who)}`,
    `run <code>${escapeHtml(context.run)}</code>${context.scenario === undefined ? '' : ` (scenario ${escapeHtml(context.scenario)})`}`,
    `trade dates ${escapeHtml(context.fromDate)} to ${escapeHtml(context.toDate)}`,
    context.instrumentId === undefined ? 'all instruments' : `instrument ${escapeHtml(context.instrumentId)}`,
  ];
  const body = `<h1>${escapeHtml(title)}</h1>
<p class="meta">${meta.join(' · ')}</p>
<p class="meta">One record per (instrument, GLOBEX trade date) the account held or traded: net quantity and average price at
the session close, realized P&amp;L of that trade date, unrealized P&amp;L at the last print at or before the close; the trade date's
commissions and realized P&amp;L net of them (net_realized_pnl = realized_pnl − commissions), which is what the
balance moved by. Average price — when flat at the close.</p>
${htmlTable([...DAILY_POSITION_REPORT_FIELDS], rows)}`;
  return htmlPage(title, body);
}

export function renderDailyPositions(
  format: DailyPositionsFormat,
  records: readonly DailyPositionRow[],
  context: DailyPositionsContext,
): string {
  switch (format) {
    case 'csv':
      return dailyPositionsCsv(records);
    case 'json':
      return dailyPositionsJson(records);
    case 'html':
      return dailyPositionsHtml(records, context);
  }
}

function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
