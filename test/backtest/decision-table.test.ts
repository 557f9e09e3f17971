// The top of report.html (docs/backtesting.md#reading-reporthtml): cells' plain labels, and the headline rule: the
// paired comparisons with the reference say which cells net the firm more or less, not overlapping per-cell
// intervals. The runs below are built by hand: 40 traders a cell, each trader's net for the firm given directly.
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/backtest/cells/cell-runner.js';
import { activeTrader, handMadeCell, handMadeRun } from './hand-made-cell.js';
import { plainCellLabel } from '../../src/reports/cell-labels.js';
import { netHeadline } from '../../src/reports/decision-table.js';
import { backtestReportHtml } from '../../src/reports/backtest-report.js';

const DAILY = 'risk_profile.daily_loss_value';

/** A cell whose 40 traders net `even` (traders 0, 2, …) and `odd` cents each; the daily limit labels it. */
function cell(index: number, daily: string, even: number, odd: number): CellResult {
  const traders = Array.from({ length: 40 }, (_, i) => activeTrader(i, i % 2 === 0 ? even : odd));
  return handMadeCell(index, traders, { [DAILY]: daily });
}

describe('plain cell labels', () => {
  it('reads the max-loss mode and allowance as one phrase, the mode from the plan when the grid does not vary it', () => {
    const values = {
      'risk_profile.max_drawdown_mode': 'eod_balance',
      'risk_profile.max_drawdown_value': '2000',
      [DAILY]: '1000',
    };
    expect(plainCellLabel(values, {})).toBe('EOD trailing $2,000 · daily $1,000');
    const plan = { risk_profile: { max_drawdown_mode: 'realtime_equity' } };
    expect(plainCellLabel({ 'risk_profile.max_drawdown_value': '2500.00', [DAILY]: null }, plan)).toBe(
      'intraday trailing $2,500 · no daily limit',
    );
  });

  it("names the funded plan's fields as funded, keeps cents, and falls back to field=value", () => {
    const values = {
      'passing_criteria.profit_target': '1234.5',
      'funded.risk_profile.daily_loss_value': '1500',
      'foo.bar': 3,
    };
    expect(plainCellLabel(values, {})).toBe('target $1,234.50 · foo.bar=3 · funded daily $1,500');
    expect(plainCellLabel({}, {})).toBe('base plan');
  });
});

describe('the net headline rule', () => {
  it('says from the paired comparisons which cells are better and worse for the firm, and which nets the most', () => {
    // #1 nets $60.00 more than #0 from every trader, #2 $100.00 less: every difference one way, p = 0 (no spread: the
    // mean difference is exact), under 0.05 after Holm's × 6. #3 nets the same: no trader moved.
    const html = netHeadline(
      handMadeRun([
        cell(0, '1000', 10_000, 12_000),
        cell(1, '500', 16_000, 18_000),
        cell(2, '300', 0, 2_000),
        cell(3, '200', 10_000, 12_000),
      ]),
    );
    expect(html).toBe(
      '<p class="headline">On net per trader against cell #0 (daily $1,000), paired by trader and Holm-adjusted: <b>better for the firm</b>: #1 (+$60.00 a trader); <b>worse for the firm</b>: #2 (−$100.00 a trader); no evidence either way for the other 1. The highest net is cell #1 (daily $500), $170.00 a trader. On pass rate, 2 points would take about 450 (450 to 3,339) traders a cell.</p>',
    );
  });

  it('names no better cell when no comparison has evidence, whatever the per-cell figures', () => {
    // #1 nets $200.00 or −$100.00 from alternate traders against #0's $40.00 each: a mean difference of +$10.00 that
    // 40 traders cannot tell from none.
    const r = handMadeRun([cell(0, '1000', 4_000, 4_000), cell(1, '500', 20_000, -10_000)]);
    const html = netHeadline(r);
    expect(html).toContain('no evidence either way for every cell.');
    expect(html).toContain('The highest net is cell #1 (daily $500), $50.00 a trader.');
    expect(html).not.toContain('better for the firm');
  });
});

describe('the decision on the page', () => {
  it('the decision table says better or worse for the firm; the pass-rate heatmap marks only pass-rate differences', () => {
    // #1 nets $100.00 more than #0 from every one of 40 traders: p = 0, under 0.05 after Holm's × 6. #2 nets the same
    // as #0: no trader moves, p = 1. Nobody passes or fails anywhere: no pass-rate difference to mark.
    const html = backtestReportHtml(
      handMadeRun([cell(0, '1000', 4_000, 4_000), cell(1, '500', 14_000, 14_000), cell(2, '300', 4_000, 4_000)]),
    );
    const heatmap = html.slice(html.indexOf('<h2>Pass rate across the grid</h2>'), html.indexOf('<h2>Outcomes'));
    expect(heatmap).toContain('0 of 2 cells differ on pass rate');
    expect(heatmap).toContain('>0.0% ref<');
    expect(heatmap).not.toContain('◆<');
    const table = html.slice(html.indexOf('<table class="sortable decisions"'), html.indexOf('</table>'));
    const rows = table.split('\n').filter((line) => line.startsWith('<tr'));
    expect(rows[2]).toContain(
      '<td class="better" data-sort="10000">+$100.00<br><small>+$100.00 to +$100.00</small><br><b>better for the firm</b></td>',
    );
    expect(rows[3]).toContain(
      `<td class="noise" data-sort="0" title="no trader&#39;s net moved between the two cells">±$0.00<br><small>±$0.00 to ±$0.00</small><br>no evidence</td>`,
    );
  });

  it('tells a config without synthetic traders to add traders to its fills file, where --traders is refused', () => {
    const html = backtestReportHtml(handMadeRun([cell(0, '1000', 4_000, 4_000), cell(1, '500', 4_000, 4_000)]));
    expect(html).toContain(
      '(add traders to the fills file, or traders.synthetic blocks to the config; --traders sets only synthetic traders, and this config has none).',
    );
    expect(html).not.toContain('run with --traders N');
  });

  it('with one cell, has no headline and says there is no difference to judge', () => {
    const html = backtestReportHtml(handMadeRun([cell(0, '1000', 4_000, 4_000)]));
    expect(html).toContain('Each figure has a 95% interval; with one cell there is no difference to judge.');
    expect(html).not.toContain('class="headline"');
    expect(html).not.toContain('0 comparisons');
    expect(html).not.toMatch(/better for the firm|every other cell/);
  });
});
