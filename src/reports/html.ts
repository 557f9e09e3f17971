// Small helpers for the static HTML reports: escaping and tables, with one shared stylesheet.

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function htmlTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly unknown[]>,
  rowClass?: (row: number) => string,
  tableClass?: string,
): string {
  // A heading may break after an underscore or a dot: plan fields (max_drawdown_value) are long single words, and the
  // columns are only as wide as their figures then, so a wide table fits the page.
  const head = `<tr>${header.map((h) => `<th>${escapeHtml(h).replace(/[_.]/g, '$&<wbr>')}</th>`).join('')}</tr>`;
  const body = rows
    .map(
      (row, i) =>
        `<tr${rowClass ? ` class="${rowClass(i)}"` : ''}>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  // Columns of figures are right-aligned, so that their digits line up: named once on the table (FIGURE_COLUMNS_CSS),
  // not on each of a thousand rows' cells.
  const figures = header.flatMap((_, c) =>
    c < MAX_FIGURE_COLUMN &&
    rows.every((row) => isFigure(row[c]) || isNone(row[c])) &&
    rows.some((row) => isFigure(row[c]))
      ? [c + 1]
      : [],
  );
  const attributes = `${tableClass ? ` class="${tableClass}"` : ''}${figures.length > 0 ? ` data-figures="${figures.join(' ')}"` : ''}`;
  return rows.length === 0 ? '<p class="none">none</p>' : `<table${attributes}>\n${head}\n${body}\n</table>`;
}

/** Tables have fewer columns than this; a column past it is left as text. */
const MAX_FIGURE_COLUMN = 24;

/** Right-aligns the columns a table names in data-figures (1-based, as nth-child counts). */
const FIGURE_COLUMNS_CSS = Array.from(
  { length: MAX_FIGURE_COLUMN },
  (_, i) => `table[data-figures~="${i + 1}"] :is(th,td):nth-child(${i + 1})`,
).join(',');

/**
 * Whether a cell is a figure (a count, an amount, a rate, with an interval after it): a column of figures, and of
 * cells that stand for none, is right-aligned, so that the digits of its rows line up. An empty column is not.
 */
function isFigure(cell: unknown): boolean {
  if (typeof cell === 'number') return true;
  return typeof cell === 'string' && /^[-+]?\$?\d[\d,]*(\.\d+)?%?( \(.*\))?$/.test(cell);
}

function isNone(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && ['none', '', '–', '—'].includes(cell));
}

/**
 * Makes every `table.sortable` sortable by a click on a column's heading (again to reverse): by a cell's data-sort
 * number when it has one, else numbers as numbers ($, commas and % ignored), the rest as text. The page works without it; it only orders rows.
 */
export const SORTABLE_TABLES_SCRIPT = `<script>
document.querySelectorAll('table.sortable').forEach((table) => {
  const head = table.rows[0];
  head.style.cursor = 'pointer';
  head.title = 'click a heading to sort';
  head.addEventListener('click', (event) => {
    const col = event.target.closest('th').cellIndex;
    const down = table.dataset.col === String(col) && table.dataset.dir !== 'down';
    table.dataset.col = String(col);
    table.dataset.dir = down ? 'down' : 'up';
    const key = (row) => { const c = row.cells[col]; if (c.dataset.sort !== undefined) return Number(c.dataset.sort); const t = c.textContent; const n = Number(t.replace(/[$,%]/g, '')); return t !== '' && !Number.isNaN(n) ? n : t; };
    const rows = [...table.rows].slice(1);
    rows.sort((a, b) => { const x = key(a), y = key(b); const c = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : typeof x === 'number' ? -1 : 1; return down ? -c : c; });
    for (const row of rows) row.parentNode.appendChild(row);
  });
});
</script>`;

/**
 * The page never scrolls sideways, down to a phone's width: a table wider than the page scrolls inside itself (the
 * table a block that scrolls, its rows' box (tbody) still the page's width when narrower), and charts scale down.
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;color:#1d2433;padding:0 1rem}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.1rem;margin-top:2rem;border-bottom:1px solid #dde2ea;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%;font-size:13px;display:block;overflow-x:auto}tbody{display:table;width:100%}th,td{padding:.3rem .5rem;border-bottom:1px solid #eef1f5;text-align:left;vertical-align:top}
th{background:#f5f7fa;font-weight:600}${FIGURE_COLUMNS_CSS}{text-align:right}tr.fail td{background:#fdecec}tr.pass td{background:#f1f9f1}tr.risk td{background:#fff3e0}
.badge{display:inline-block;padding:.1rem .6rem;border-radius:1rem;font-weight:600}.badge.pass{background:#d6f0d6;color:#1b5e20}.badge.fail{background:#f8d0d0;color:#8e1c1c}
.chart{position:relative;margin:0}.chart svg{max-width:100%;height:auto}.chart svg.hover{position:absolute;left:0;top:0}.hover rect{fill:transparent}.hover rect:hover{fill:rgba(29,36,51,.08)}.fans{display:flex;flex-wrap:wrap;gap:.5rem 1rem}
.wide{overflow-x:auto}.wide table{font-size:12px;white-space:nowrap}.wide th{white-space:normal}.verdict li{margin:.15rem 0}.noise{color:#5b6578}.signal{color:#1b5e20;font-weight:600}.fees-only{color:#6d4c41}.better{color:#1b5e20}.worse{color:#b71c1c}.shift{color:#1a4f8b}
.meta{color:#5b6578}.meta code{overflow-wrap:anywhere}.expectations td:nth-child(n+4){overflow-wrap:break-word}.headline{font-size:15px}.decisions{font-size:12.5px}.decisions td:nth-child(2){min-width:11rem}tr.reference td{background:#f5f7fa}td.signal b{color:#1b5e20}.none{color:#8a93a3;font-style:italic}code{font-size:12px}
</style></head><body>
${body}
</body></html>
`;
}
