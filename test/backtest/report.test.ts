// What `propsim backtest` writes in --out, and report.html: one SVG per chart (the pass-rate heatmap, the
// causes per cell, the firm economics, an equity fan per picked cell) and the economics table.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../src/backtest/backtest-config.js';
import { backtestOutputFiles, writeBacktestOutputs } from '../../src/reports/backtest-outputs.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';

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
      'Firm economics per cell',
      'Sample traders in cell #0 (risk_profile.max_drawdown_value=1500 risk_profile.daily_loss_value=none)',
      'Sample traders in cell #1 (risk_profile.max_drawdown_value=1500 risk_profile.daily_loss_value=300)',
    ];
    for (const heading of charts) {
      expect(bySection.has(heading), heading).toBe(true);
      expect(svgCount(bySection.get(heading)!), heading).toBe(1);
    }
    // A headroom fan per cell (4 cells), each an echarts SVG and its hover overlay.
    const fans = bySection.get('Headroom above the max-loss floor, per cell')!;
    expect(svgCount(fans)).toBe(8);
    expect(svgCount(html)).toBe(charts.length + 8);
    // The heatmap labels each cell with its pass rate; the causes chart names every cause; the economics chart
    // its three series.
    expect(bySection.get('Pass rate across the grid')).toContain('50%');
    for (const cause of [
      'passed',
      'max_loss_breach',
      'profit_target_not_reached',
      'min_trading_days_not_met',
      'consistency_not_met',
    ]) {
      expect(bySection.get('Outcomes and their causes per cell')).toContain(cause);
    }
    for (const series of ['revenue', 'payouts', 'net'])
      expect(bySection.get('Firm economics per cell')).toContain(`>${series}<`);
    expect(html).toContain('Highest net for the firm: <b>cell #1</b>');
  });

  it('has the economics table: one row per cell with the grid values, counts, rates and money', () => {
    const economics = sections(html).get('Firm economics per cell')!;
    const table = economics.slice(economics.indexOf('<table'), economics.indexOf('</table>'));
    const rows = table.split('\n').filter((line) => line.startsWith('<tr>'));
    const cells = (row: string) =>
      [...row.matchAll(/<t[hd]>(.*?)<\/t[hd]>/g)].map((m) => m[1]!.replaceAll('<wbr>', ''));
    // Headings break after underscores (the table fits the page); the columns of figures are right-aligned: all but
    // the cell's number (#0).
    expect(rows[0]).toContain('<th>max_<wbr>drawdown_<wbr>value</th>');
    expect(economics).toContain(`<table data-figures="${Array.from({ length: 13 }, (_, i) => i + 2).join(' ')}">`);
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
    ]);
    expect(rows.slice(1).map((row) => cells(row).slice(0, 12))).toEqual([
      // Wilson 95 %: 1 of 2 → 9.5–90.5 %, 0 of 2 → 0.0–65.8 % (test/backtest/hand-checked.test.ts works them).
      ['#0', '1500', 'none', '2', '1', '0', '50.0% (9.5–90.5%)', '3', '–', '0', '$51,162.50', '$200.00'],
      ['#1', '1500', '300', '2', '0', '0', '0.0% (0.0–65.8%)', '–', '–', '1', '$51,112.50', '$200.00'],
      ['#2', '500', 'none', '2', '0', '1', '0.0% (0.0–65.8%)', '–', '2', '0', '$50,717.50', '$200.00'],
      ['#3', '500', '300', '2', '0', '1', '0.0% (0.0–65.8%)', '–', '3', '1', '$50,562.50', '$200.00'],
    ]);
    expect(cells(rows[1]!)[12]).toBe('$864.00');
    expect(rows.slice(2).map((row) => cells(row).slice(12))).toEqual([
      ['$0.00', '$200.00'],
      ['$0.00', '$200.00'],
      ['$0.00', '$200.00'],
    ]);
  });

  it('says which differences the run can vouch for: each cell against #0 on three metrics, Holm-adjusted', () => {
    const section = sections(html).get('Signal or noise')!;
    // ann passes in cell #0 only: one discordant trader of 2 against each other cell (ψ = 3 / 6), p = 1; with 2 traders and
    // 9 comparisons no difference in a rate could have been detected (an exact test needs 9 traders one way).
    expect(section).toMatch(
      /#1 against #0, pass rate: −50\.0 points \(95% interval −[\d.]+ points to [+±][\d.]+ points\), p = 1\.0000, 1\.0000 after Holm&#39;s correction for 9 comparisons: no evidence of a difference; this run would detect about 100\.0 points\./,
    );
    expect(section).toContain('0 of 9 comparisons differ.');
    expect(section).not.toContain('a real difference');
    expect(section).toMatch(/With 2 traders a cell, 50\.0% of them pass in one cell and not in #0 on average/);
  });

  it('has hover values on the fans, and the heatmap scale shows its numbers', () => {
    const fans = sections(html).get('Headroom above the max-loss floor, per cell')!;
    expect(fans).toMatch(
      /<title>04-0\d \d\d:\d\d CT: p10 -?\$[\d,]+\.\d\d · median -?\$[\d,]+\.\d\d · p90 -?\$[\d,]+\.\d\d above the max-loss floor<\/title>/,
    );
    expect(sections(html).get('Pass rate across the grid')).toContain('50% pass');
  });

  it('is a static page: no scripts', () => {
    expect(html).not.toMatch(/<script/i);
  });
});
