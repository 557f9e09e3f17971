// The top of report.html (docs/backtesting.md#reading-reporthtml): cells' plain labels, and the headline rule: the
// highest net is named only when its net per trader's 95 % interval clears every other cell's; otherwise the page
// says the run cannot rank them and how many traders would. The runs below are built by hand: 40 traders a cell,
// each trader's net for the firm given directly.
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/backtest/cell-runner.js';
import { activeTrader, handMadeCell, handMadeRun } from './hand-made-cell.js';
import { plainCellLabel } from '../../src/reports/cell-labels.js';
import { netHeadline, tradersToRank } from '../../src/reports/decision-table.js';
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
  it('names the highest net when its interval clears every other cell', () => {
    // #0 nets $100.00 or $120.00 a trader (mean $110.00), #1 $40.00 or $60.00, #2 $0.00 or $20.00: a bootstrap mean
    // stays within each cell's two values, so #0's interval ($100–$120) lies above #1's ($40–$60) and #2's.
    const html = netHeadline(
      handMadeRun([cell(0, '1000', 10_000, 12_000), cell(1, '500', 4_000, 6_000), cell(2, '300', 0, 2_000)]),
    );
    expect(html).toMatch(
      /^<p class="headline">Highest net for the firm: <b>cell #0<\/b> \(daily \$1,000\), \$110\.00 per trader \(95% interval \$1[01]\d\.\d\d to \$1[01]\d\.\d\d\), above every other cell's interval\.<\/p>$/,
    );
  });

  it('says plainly that the run cannot rank the cells when the highest overlaps, and how many traders would', () => {
    // #0 nets $200.00 or −$100.00 (mean $50.00, a bootstrap interval about ±$46), #1 $40.00 each, #2 −$200.00 each:
    // #0's interval reaches below $40.00, so it cannot be told from #1; #2's lies far below.
    const r = handMadeRun([
      cell(0, '1000', 20_000, -10_000),
      cell(1, '500', 4_000, 4_000),
      cell(2, '300', -20_000, -20_000),
    ]);
    // #0 − #1 per trader: +160.00 or −140.00 → gap 10.00 (1,000 cents), mean square (16,000² + 14,000²) / 2 = 226,000,000.
    // 2 cells × 3 metrics = 6 comparisons: z = Φ⁻¹(1 − 0.05/12) = 2.63826, (z + 0.84162)² = 12.1096;
    // N = ⌈12.1096 × 226,000,000 / 1,000²⌉ = ⌈2,736.8⌉ = 2,737.
    expect(tradersToRank(r, r.cells[0]!, 1)).toBe(2737);
    const html = netHeadline(r);
    expect(html).toContain(
      '<b>This run cannot rank the cells on net for the firm.</b> The highest, cell #0 (daily $1,000), $50.00 per trader',
    );
    expect(html).toContain("overlaps 1 other cell's intervals with 40 traders a cell.");
    expect(html).toContain(
      'Telling it from the runner-up, cell #1 ($40.00 per trader), would take about 2,737 traders a cell.',
    );
    expect(html).not.toContain('Highest net for the firm');
  });

  it('says no number of traders ranks two cells that net the same', () => {
    const r = handMadeRun([cell(0, '1000', 4_000, 4_000), cell(1, '500', 4_000, 4_000)]);
    expect(tradersToRank(r, r.cells[0]!, 1)).toBeNull();
    expect(netHeadline(r)).toContain(
      'The runner-up, cell #1, nets exactly the same per trader: no number of traders would rank the two.',
    );
  });
});

describe('the decision on the page', () => {
  it('marks the heatmap cells that differ from the reference, and says so in the decision table', () => {
    // #1 nets $100.00 more than #0 from every one of 40 traders: all 40 move one way, sign-flip p ≈ 2 / 2⁴⁰, far
    // under 0.05 after Holm's × 6. #2 nets the same as #0: no trader moves, p = 1.
    const html = backtestReportHtml(
      handMadeRun([cell(0, '1000', 4_000, 4_000), cell(1, '500', 14_000, 14_000), cell(2, '300', 4_000, 4_000)]),
    );
    const heatmap = html.slice(html.indexOf('<h2>Pass rate across the grid</h2>'), html.indexOf('<h2>Outcomes'));
    expect(heatmap).toContain('1 of 2 cells differ.');
    // Labels: the reference "ref", the differing cell ◆ (and a dark border), the other plain.
    expect(heatmap).toContain('>0.0% ref<');
    expect(heatmap).toContain('>0.0% ◆<');
    expect(heatmap.match(/>0.0%</g)).toHaveLength(2); // #2, and the scale's lower end
    expect(heatmap).toMatch(/stroke="#1d2433"/);
    const table = html.slice(html.indexOf('<table class="sortable decisions"'), html.indexOf('</table>'));
    const rows = table.split('\n').filter((line) => line.startsWith('<tr'));
    expect(rows[2]).toContain('+$100.00<br><b>differs</b>');
    expect(rows[3]).toContain('±$0.00<br>no evidence');
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
  });
});
