// docs/scenarios.md#reconciling-with-the-balance: `propsim report daily-positions` adds each trade date's commissions
// and net_realized_pnl = realized_pnl - commissions after the API's six columns, so the report adds up to the balance.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// ES: $50 a point; commission $2.10 per contract per side.
//   Tue 03-10: buy 2 at 5000.00, sell 2 at 4985.00: realized 2 x (4985 - 5000) x 50 = -1500.00;
//              commissions (2 + 2) x 2.10 = 8.40; net -1500.00 - 8.40 = -1508.40; balance 50000 - 1508.40 = 48491.60
//   Wed 03-11: buy 1 at 4990.00, held: realized 0.00, commissions 1 x 2.10 = 2.10, net -2.10;
//              balance 48491.60 - 2.10 = 48489.50
// The scenario's own expectations check the balances, so the replay passes only if the report's net adds up.
const SCENARIO = `name: commissions reconcile
start: 2026-03-10T09:00:00-05:00
plans:
  p:
    starting_balance: "50000"
    risk_profile: { max_drawdown_mode: static, max_drawdown_value: "5000" }
    passing_criteria: { profit_target: "100000" }
    commission_per_contract: "2.10"
accounts: [ { alias: carol, plan: p } ]
steps:
  - tick: { instrument: ESM6, price: "5000.00" }
  - fill: { account: carol, instrument: ESM6, side: buy, quantity: 2, price: "5000.00" }
  - fill: { account: carol, instrument: ESM6, side: sell, quantity: 2, price: "4985.00" }
  - expect: { account: carol, balance: "48491.60" }
  - at: 2026-03-11T10:00:00-05:00
  - fill: { account: carol, instrument: ESM6, side: buy, quantity: 1, price: "4990.00" }
  - tick: { instrument: ESM6, price: "4990.00" }
  - expect: { account: carol, balance: "48489.50" }
`;

describe('propsim report daily-positions reconciles with the balance', () => {
  it('commissions and net_realized_pnl = realized_pnl - commissions, per trade date', () => {
    const out = mkdtempSync(join(tmpdir(), 'propsim-commissions-'));
    writeFileSync(join(out, 'commissions.yaml'), SCENARIO);
    const replay = runCli(['replay', join(out, 'commissions.yaml'), '--out', out]);
    expect(replay.stdout + replay.stderr).toContain('PASS');
    expect(replay.status).toBe(0);
    const run = join(out, 'commissions-reconcile');
    const range = ['--from', '2026-03-10', '--to', '2026-03-11'];
    const csv = runCli(['report', 'daily-positions', '--run', run, '--account', 'carol', ...range]);
    expect(csv.stderr).toBe('');
    expect(csv.stdout).toBe(
      'trade_date,instrument_id,net_quantity,average_price,realized_pnl,unrealized_pnl,commissions,net_realized_pnl\n' +
        '2026-03-10,ESM6,0,,-1500.00,0.00,8.40,-1508.40\n' +
        '2026-03-11,ESM6,1,4990.00,0.00,0.00,2.10,-2.10\n',
    );
    const json = runCli([
      'report',
      'daily-positions',
      '--run',
      run,
      '--account',
      'carol',
      ...range,
      '--format',
      'json',
    ]);
    const items = (JSON.parse(json.stdout) as { items: Array<Record<string, unknown>> }).items;
    expect(items.map((r) => [r.realized_pnl, r.commissions, r.net_realized_pnl])).toEqual([
      ['-1500.00', '8.40', '-1508.40'],
      ['0.00', '2.10', '-2.10'],
    ]);
  });
});
