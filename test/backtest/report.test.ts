// What `propsim backtest` writes in --out, and report.html: one SVG per chart (the pass-rate heatmap, the
// causes per cell, the firm economics, an equity fan per picked cell) and the economics table.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../src/backtest/config/backtest-config.js';
import { backtestOutputFiles, writeBacktestOutputs } from '../../src/reports/backtest-outputs.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import { sharedHeadroomRange } from '../../src/reports/headroom-fans.js';

const CONFIG = fileURLToPath(new URL('./fixtures/hand-checked.yaml', import.meta.url));

/** The page split at its h2 headings: heading text -> the section's HTML. */
function sections(html: string): Map<string, string> {
  const parts = html.split('<h2>').slice(1);
  return new Map(parts.map((part) => [part.slice(0, part.indexOf('</h2>')), part]));
}

const svgCount = (html: string) => html.match(/<svg[\s>]/g)?.length ?? 0;

describe('back-test outputs and report.html', () => {
  let out: string;
  let html: string;
  beforeAll(async () => {
    // The hand-checked grid with its first axis reversed: cell #0 (1500, none) pays out 864.00, so the best net
    // is cell #1 (1500, 300) and the report draws two fan charts (the first cell and the best-net cell).
    const config = loadBacktestConfig(CONFIG);
    config.grid[0]!.values.reverse();
    const run = await runBacktest(config, { workers: 1 });
    out = writeBacktestOutputs(
      backtestOutputFiles(run),
      join(mkdtempSync(join(tmpdir(), 'propsim-backtest-report-')), 'out'),
    );
    html = readFileSync(join(out, 'report.html'), 'utf8');
  });

  it('writes exactly cells.csv, traders.csv, summary.json and report.html, and no staging folder', () => {
    expect(readdirSync(out).sort()).toEqual(['cells.csv', 'report.html', 'summary.json', 'traders.csv']);
    expect(readdirSync(dirname(out))).toEqual(['out']);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({ best_net_cell: 1, traders: 2 });
  });

  it('has an SVG per chart: heatmap, causes, economics and a fan chart for the first and the best-net cell', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const bySection = sections(html);
    const charts = [
      'Pass rate across the grid',
      'Outcomes and their causes per cell',
      'The funnel per cell',
      'Firm economics per cell',
      'Sample traders in cell #0 (EOD trailing $1,500 · no daily limit)',
      'Sample traders in cell #1 (EOD trailing $1,500 · daily $300)',
    ];
    for (const heading of charts) {
      expect(bySection.has(heading), heading).toBe(true);
      expect(svgCount(bySection.get(heading)!), heading).toBe(1);
    }
    // A headroom fan per cell (4 cells), each an echarts SVG and its hover overlay.
    const fans = bySection.get('Headroom above the max-loss floor, per cell')!;
    expect(svgCount(fans)).toBe(8);
    // The first evaluations in time: one chart per cell against the reference (3 other cells).
    const outcomes = bySection.get('Outcomes in time')!;
    expect(svgCount(outcomes)).toBe(3);
    expect(outcomes).toContain(
      'By day 3, the period&#39;s last trade date, 1 of 2 first evaluations (50.0%) in cell #0 were still open',
    );
    expect(svgCount(html)).toBe(charts.length + 8 + 3);
    // The heatmap labels each cell with its pass rate; the causes chart names every cause; the economics chart
    // its three series.
    // Every percentage with one decimal (never "4%" beside "3.5%"): 1 of 2 traders passing is 50.0%.
    const heatmap = bySection.get('Pass rate across the grid')!;
    expect(heatmap).toContain('>50.0% ref<');
    const percents = [...heatmap.matchAll(/>([^<]*%)[^<]*</g)].map((m) => m[1]!);
    expect(percents.length).toBeGreaterThan(4);
    for (const percent of percents) expect(percent).toMatch(/^\d+\.\d%$/);
    for (const cause of [
      'passed',
      'max_loss_breach',
      'profit_target_not_reached',
      'min_trading_days_not_met',
      'consistency_not_met',
    ]) {
      expect(bySection.get('Outcomes and their causes per cell')).toContain(cause);
    }
    // The funnel's four steps; without a funded stage no one is funded or paid, and the page says why.
    for (const step of ['evaluations', 'passes', 'funded', 'paid at least once'])
      expect(bySection.get('The funnel per cell')).toContain(`>${step}<`);
    expect(bySection.get('The funnel per cell')).toContain('This config has no funded stage');
    // Fees by kind against payouts, and the net.
    for (const series of ['evaluation fees', 'reset fees', 'activation fees', 'payouts', 'net'])
      expect(bySection.get('Firm economics per cell')).toContain(`>${series}<`);
    // The sample traders' chart has a legend naming each trader.
    const samples = bySection.get('Sample traders in cell #0 (EOD trailing $1,500 · no daily limit)')!;
    for (const trader of ['ann', 'bob']) expect(samples).toContain(`>${trader}<`);
  });

  it('opens with how to read it, in three sentences, then the decision', () => {
    const headings = [...html.matchAll(/<h2>(.*?)<\/h2>/g)].map((m) => m[1]);
    expect(headings.slice(0, 2)).toEqual(['How to read this', 'Decision']);
    const reading = sections(html).get('How to read this')!;
    const text = reading.slice(reading.indexOf('<p>') + 3, reading.indexOf('</p>'));
    expect(text.split(/(?<=\.) (?=[A-Z])/)).toHaveLength(3);
  });

  it('has the decision table: a row per cell with its plain label, three metrics, verdicts and active count', () => {
    const decision = sections(html).get('Decision')!;
    const table = decision.slice(decision.indexOf('<table'), decision.indexOf('</table>'));
    expect(table).toContain('<table class="sortable decisions"');
    const rows = table.split('\n').filter((line) => line.startsWith('<tr'));
    const cells = (row: string) =>
      [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) =>
        m[1]!.replace(/<\/?(b|small)>/g, '').replaceAll('<br>', ' · '),
      );
    expect(cells(rows[0]!)).toEqual([
      'cell',
      'plan',
      'pass rate by day 3 (95% interval, this cell)',
      'vs #0 (interval at Holm&#39;s level)',
      'failure rate by day 3 (95% interval, this cell)',
      'vs #0 (interval at Holm&#39;s level)',
      'net per trader (95% interval, this cell)',
      'vs #0 (interval at Holm&#39;s level)',
      'still active',
    ]);
    // Labels from the grid values, the mode from the base plan (eod_balance). Pass and failure rates as in the
    // economics table (Wilson 95 %); ann passes in #0 only and bob fails in #2 and #3 (hand-checked.test.ts).
    // Net per trader: #0 (200.00 − 864.00) / 2 = −332.00; elsewhere 200.00 / 2 = 100.00. No difference survives
    // Holm's correction with 2 traders: every verdict is "no evidence", beside its interval at Holm's level (the
    // exact one for a rate: 1 discordant trader of 2 at 0.05, −50.0 to +47.5 points; hand-checked.test.ts works the net).
    const body = rows.slice(1).map(cells);
    expect(body.map((r) => [r[0], r[1], r[2], r[3], r[4], r[8]])).toEqual([
      ['#0', 'EOD trailing $1,500 · no daily limit', '50.0% (9.5% to 90.5%)', 'reference', '0.0% (0.0% to 65.8%)', '1'],
      [
        '#1',
        'EOD trailing $1,500 · daily $300',
        '0.0% (0.0% to 65.8%)',
        '−50.0 points · −50.0 points to +47.5 points · no evidence',
        '0.0% (0.0% to 65.8%)',
        '2',
      ],
      [
        '#2',
        'EOD trailing $500 · no daily limit',
        '0.0% (0.0% to 65.8%)',
        '−50.0 points · −50.0 points to +47.5 points · no evidence',
        '50.0% (9.5% to 90.5%)',
        '1',
      ],
      [
        '#3',
        'EOD trailing $500 · daily $300',
        '0.0% (0.0% to 65.8%)',
        '−50.0 points · −50.0 points to +47.5 points · no evidence',
        '50.0% (9.5% to 90.5%)',
        '1',
      ],
    ]);
    expect(body.map((r) => [r[5], r[7]])).toEqual([
      ['reference', 'reference'],
      ['±0.0 points · ±0.0 points to ±0.0 points · no evidence', '+$432.00 · −$8,327.50 to +$9,191.50 · no evidence *'],
      [
        '+50.0 points · −47.5 points to +50.0 points · no evidence',
        '+$432.00 · −$8,327.50 to +$9,191.50 · no evidence *',
      ],
      [
        '+50.0 points · −47.5 points to +50.0 points · no evidence',
        '+$432.00 · −$8,327.50 to +$9,191.50 · no evidence *',
      ],
    ]);
    expect(body[0]![6]).toMatch(/^-\$332\.00 \(-\$[\d,.]+ to \$[\d,.]+\)$/);
    expect(body.slice(1).map((r) => r[6])).toEqual(Array(3).fill('$100.00 ($100.00 to $100.00)'));
    // Sorting keys are the figures, not their text: the net column of #0 sorts as −33,200 cents.
    expect(rows[1]).toContain('<td data-sort="-33200">');
  });

  it('says from the paired comparisons that no cell is better or worse for the firm, and which nets the most', () => {
    const decision = sections(html).get('Decision')!;
    expect(decision).toContain(
      '<p class="headline">On net per trader against cell #0 (EOD trailing $1,500 · no daily limit), paired by trader and Holm-adjusted: no evidence either way for every cell. The highest net is cell #1 (EOD trailing $1,500 · daily $300), $100.00 a trader.',
    );
  });

  it('has the economics table: one row per cell with the grid values, counts, rates and money', () => {
    const economics = sections(html).get('Firm economics per cell')!;
    const table = economics.slice(economics.indexOf('<table'), economics.indexOf('</table>'));
    const rows = table.split('\n').filter((line) => line.startsWith('<tr>'));
    const cells = (row: string) =>
      [...row.matchAll(/<t[hd]>(.*?)<\/t[hd]>/g)].map((m) => m[1]!.replaceAll('<wbr>', ''));
    // Headings break after underscores (the table fits the page); the columns of figures are right-aligned: all but
    // the cell's number (#0) and the dropped fills' "locked · failed · passed" (column 15).
    expect(rows[0]).toContain('<th>max_<wbr>drawdown_<wbr>value</th>');
    const figures = [...Array.from({ length: 13 }, (_, i) => i + 2), 16];
    expect(economics).toContain(`<table data-figures="${figures.join(' ')}">`);
    expect(html).toContain('table[data-figures~="2"] :is(th,td):nth-child(2),');
    expect(cells(rows[0]!)).toEqual([
      'cell',
      'max_drawdown_value',
      'daily_loss_value',
      'accounts',
      'passed',
      'failed',
      'pass rate (95% interval)',
      'median days to pass',
      'median days to fail',
      'daily-lock days',
      'mean final balance',
      'revenue',
      'payouts',
      'net',
      'fills dropped: locked · failed · passed', // the config has historical fills
      'positions never had',
    ]);
    expect(rows.slice(1).map((row) => cells(row).slice(0, 12))).toEqual([
      // Wilson 95 %: 1 of 2 → 9.5–90.5 %, 0 of 2 → 0.0–65.8 % (test/backtest/hand-checked.test.ts works them).
      ['#0', '1500', 'none', '2', '1', '0', '50.0% (9.5–90.5%)', '3', '–', '0', '$51,162.50', '$200.00'],
      ['#1', '1500', '300', '2', '0', '0', '0.0% (0.0–65.8%)', '–', '–', '1', '$51,112.50', '$200.00'],
      ['#2', '500', 'none', '2', '0', '1', '0.0% (0.0–65.8%)', '–', '2', '0', '$50,717.50', '$200.00'],
      ['#3', '500', '300', '2', '0', '1', '0.0% (0.0–65.8%)', '–', '3', '1', '$50,562.50', '$200.00'],
    ]);
    // Dropped fills, ann's (hand-checked.test.ts works them): none in 1500/none, the locked 11:01 sell in 1500/300,
    // three after the failure in 500/none, and one locked and one failed in 500/300; no position she never had.
    expect(rows.slice(1).map((row) => cells(row).slice(12))).toEqual([
      ['$864.00', '-$664.00', '0 · 0 · 0', '0'],
      ['$0.00', '$200.00', '1 · 0 · 0', '0'],
      ['$0.00', '$200.00', '0 · 3 · 0', '0'],
      ['$0.00', '$200.00', '1 · 1 · 0', '0'],
    ]);
  });

  it('says which differences the run can vouch for: each cell against #0 on three metrics, Holm-adjusted', () => {
    const section = sections(html).get('Signal or noise')!;
    // ann passes in cell #0 only: one discordant trader of 2 against each other cell (ψ = 3 / 6), p = 1; with 2 traders and
    // 9 comparisons no difference in a rate could have been detected (an exact test needs 9 traders one way).
    expect(section).toMatch(
      /#1 against #0, pass rate: −50\.0 points \(95\.00% interval −50\.0 points to \+47\.5 points, Holm&#39;s level for this comparison\), p = 1\.0000, 1\.0000 after Holm&#39;s correction for 9 comparisons: no evidence of a difference; this run would detect about 100\.0 points\./,
    );
    expect(section).toContain('0 of 9 comparisons differ.');
    expect(section).not.toContain('a real difference');
    expect(section).toMatch(/With 2 traders a cell, 50\.0% of them pass in one cell and not in #0 on average/);
  });

  it("draws every headroom fan on one y-scale that holds every cell's p10 and p90 and the floor", () => {
    const fans = sections(html).get('Headroom above the max-loss floor, per cell')!;
    const ranges = [...fans.matchAll(/<figure class="chart" data-y-range="(-?[\d.]+) (-?[\d.]+)">/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    expect(ranges).toHaveLength(4);
    expect(new Set(ranges.map(String)).size).toBe(1);
    const [min, max] = ranges[0]!;
    // Every fan's p10 and p90 (the titles over its hover columns) lie inside the shared range.
    const dollars = [...fans.matchAll(/(p10|p90) (-?)\$([\d,]+\.\d\d)/g)].map(
      (m) => [m[1], Number(`${m[2]}${m[3]!.replaceAll(',', '')}`)] as const,
    );
    const p10 = Math.min(...dollars.filter(([k]) => k === 'p10').map(([, v]) => v));
    const p90 = Math.max(...dollars.filter(([k]) => k === 'p90').map(([, v]) => v));
    expect(min).toBeLessThanOrEqual(Math.min(0, p10));
    expect(max).toBeGreaterThanOrEqual(Math.max(0, p90));
  });

  it('widens the shared headroom range to round steps', () => {
    // p10 down to −$350.00 in one cell, p90 up to $1,234.00 in another: span 1,584 / 5 = 316.8 → a step of 500
    // (of 100, 200, 500, 1,000); −350 floors to −500 and 1,234 ceils to 1,500.
    const t = Date.UTC(2026, 3, 7);
    const range = sharedHeadroomRange([[[t, -35_000, 0, 10_000]], [[t, 0, 50_000, 123_400]]]);
    expect(range).toEqual({ min: -500, max: 1500 });
    // All above the floor: the range still starts at 0, the floor.
    expect(sharedHeadroomRange([[[t, 20_000, 30_000, 40_000]]])).toEqual({ min: 0, max: 400 });
  });

  it('has hover values on the fans, and the heatmap scale shows its numbers', () => {
    const fans = sections(html).get('Headroom above the max-loss floor, per cell')!;
    expect(fans).toMatch(
      /<title>04-0\d \d\d:\d\d CT: p10 -?\$[\d,]+\.\d\d · median -?\$[\d,]+\.\d\d · p90 -?\$[\d,]+\.\d\d above the max-loss floor<\/title>/,
    );
    expect(sections(html).get('Pass rate across the grid')).toContain('50.0% pass');
  });

  it('has one script, the sorting of tables; the page reads without it', () => {
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html.indexOf('<script')).toBeGreaterThan(html.lastIndexOf('</table>'));
  });
});
