// report.html of a replay with many accounts (src/reports/replay-report.ts): the accounts that matter first in a
// sortable table, beyond CHARTED_ACCOUNTS accounts charts only for the CHARTS_OF_MANY that matter, and every account still in state.json.
import { describe, expect, it } from 'vitest';
import { GlobexCalendar } from '../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../src/market/holiday-file.js';
import { ChartWorkers } from '../../src/reports/chart-workers.js';
import { CHARTED_ACCOUNTS, CHARTS_OF_MANY, replayReportHtml } from '../../src/reports/replay-report.js';
import { parseScenario } from '../../src/scenario/parse-scenario.js';
import { runScenario } from '../../src/scenario/runner.js';
import { decodeScenarioText } from '../../src/scenario/yaml-source.js';

/** 40 accounts: a03 loses $2,100 of a $2,000 static drawdown (fails), the others trade a point or nothing. */
function manyAccounts(): string {
  const aliases = Array.from({ length: 40 }, (_, i) => `a${String(i).padStart(2, '0')}`);
  const steps = aliases.flatMap((alias) => {
    const exit = alias === 'a03' ? '4958.00' : '5001.00';
    return [
      `  - fill: { account: ${alias}, instrument: ESM6, side: buy, quantity: 1, price: "5000.00" }`,
      '  - advance: 1s',
      `  - fill: { account: ${alias}, instrument: ESM6, side: sell, quantity: 1, price: "${exit}" }`,
    ];
  });
  return [
    'name: many accounts',
    'start: 2026-03-10T09:00:00-05:00',
    'plans:',
    '  p: { starting_balance: "50000", risk_profile: { max_drawdown_mode: static, max_drawdown_value: "2000" }, passing_criteria: { profit_target: "3000" } }',
    `accounts: [ ${aliases.map((a) => `{ alias: ${a}, plan: p }`).join(', ')} ]`,
    'steps:',
    ...steps,
  ].join('\n');
}

describe('replay report with many accounts', () => {
  it('lists the failed account first, charts only the accounts that matter, and sorts on a click', async () => {
    const scenario = parseScenario(decodeScenarioText(manyAccounts(), 'many.yaml'), 'many.yaml');
    const run = await runScenario(scenario, { calendar: new GlobexCalendar(loadHolidayFile()) });
    const html = await replayReportHtml(run, '0'.repeat(64));
    const accounts = html.slice(html.indexOf('<h2>Accounts</h2>'), html.indexOf('<h3>'));
    const firstRow = accounts.split('\n').find((line) => line.startsWith('<tr><td>'))!;
    expect(firstRow).toContain('<td>a03</td><td>failed</td>');
    expect(accounts).toMatch(/<table class="sortable" data-figures="[\d ]+">/);
    // 40 accounts > CHARTED_ACCOUNTS (24): a chart for the first CHARTS_OF_MANY (6) rows of the table, a03 first.
    expect(40).toBeGreaterThan(CHARTED_ACCOUNTS);
    expect(html.match(/<h3>/g)).toHaveLength(CHARTS_OF_MANY);
    expect(html.match(/<h3>(\w+):/)![1]).toBe('a03');
    expect(html).toContain(`<p class="meta">Charts of the first ${CHARTS_OF_MANY} accounts of the table above;`);
    expect(html).toContain('<h3>a03: equity and floors (CT)</h3>');
    expect(html).toContain('<script>');
  });

  it('is the same page with its charts drawn on worker threads', async () => {
    const scenario = parseScenario(decodeScenarioText(manyAccounts(), 'many.yaml'), 'many.yaml');
    const run = await runScenario(scenario, { calendar: new GlobexCalendar(loadHolidayFile()) });
    const workers = new ChartWorkers(2);
    try {
      const drawnThere = await replayReportHtml(run, '0'.repeat(64), workers);
      expect(drawnThere.match(/<svg/g)).toHaveLength(CHARTS_OF_MANY);
      expect(drawnThere).toBe(await replayReportHtml(run, '0'.repeat(64)));
    } finally {
      await workers.close();
    }
  });
});
