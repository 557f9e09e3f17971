// Test helpers: a temporary folder laid out like a project (scenarios/ next to fixtures/market/), holding an example
// scenario with every top-level key and every step type (docs/scenarios.md) and a small tick file it points at.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ScenarioError } from '../../src/scenario/scenario-error.js';

export const ES_SAMPLE_CSV =
  'ts,instrument,price,size\n2026-03-02T09:00:00-06:00,ESM6,5000.00,3\n2026-03-02T09:00:01-06:00,ESM6,5000.25,1\n';

/** Every top-level key and step type once; the two orders its oco step links are placed first. */
export const EVERY_STEP_EXAMPLE = `name: eod trailing floor            # required
start: 2026-03-02T08:00:00-06:00    # required: where the simulated clock starts
seed: 7                             # optional, default 1
fill_model: { latency_ms: 0, slippage_ticks: 0, limit_fill: touch }   # optional, these are the defaults
plans:
  eval-50k:
    starting_balance: "50000"
    currency: USD
    risk_profile: { max_drawdown_mode: eod_balance, max_drawdown_value: "2000", max_drawdown_limit: "0", daily_loss_value: "1000" }
    passing_criteria: { profit_target: "3000", min_trading_days: 5 }
    position_limits: { max_contracts: 10 }
    commission_per_contract: "0"     # per side
accounts:
  - { alias: alice, plan: eval-50k }  # overlays allowed: initial_balance, currency, risk_profile, passing_criteria, price_paid
market:                               # optional: replayed as the clock advances
  files: [ { path: ../fixtures/market/es-sample.csv, format: ticks } ]   # format: ticks | bars; paths relative to the scenario file
steps:
  - at: 2026-03-02T09:00:00-06:00     # advance the clock; fires rolls, expiries, latency, market file rows up to then
  - advance: 30m                       # advance by a duration
  - tick: { instrument: ESM6, price: "5000.00", size: 3 }           # a trade print now; size optional (unlimited)
  - fill: { account: alice, instrument: ESM6, side: buy, quantity: 1, price: "5000.00" }   # a historical execution, no venue
  - order: { ref: o1, account: alice, instrument: ESM6, side: buy, quantity: 2, type: limit, limit_price: "4999.75", tif: day }
  - modify: { ref: o1, limit_price: "4999.50" }
  - cancel: { ref: o1 }
  - order: { ref: o2, account: alice, instrument: ESM6, side: sell, quantity: 1, type: limit, limit_price: "5010.00" }
  - order: { ref: o3, account: alice, instrument: ESM6, side: sell, quantity: 1, type: stop, stop_price: "4990.00", tif: gtc }
  - oco: { group: g1, orders: [o2, o3] }
  - lockout: { account: alice, reason_code: review }
  - unlock: { account: alice }
  - flatten: { account: alice }
  - adjust: { account: alice, amount: "-250.00", reason_code: fee }
  - daily_loss_trigger: { account: alice, daily_loss_limit_trigger: "49500", reason_code: ops }
  - reanchor: { account: alice, reason_code: ops }
  - max_loss_limit: { account: alice, max_drawdown_limit: "100" }
  - expect: { account: alice, balance: "50000", max_loss_limit_trigger: "48000", is_locked: false, account_status: active }
  - expect: { order: o1, status: CANCELLED }
  - expect: { position: { account: alice, instrument: ESM6 }, net_quantity: 1, average_price: "5000" }
`;

export interface ScenarioFolder {
  root: string;
  /** Writes a file under the root (folders made as needed) and returns its path. */
  write(relativePath: string, text: string): string;
}

export function makeScenarioFolder(): ScenarioFolder {
  const root = mkdtempSync(join(tmpdir(), 'propsim-scenario-'));
  const write = (relativePath: string, text: string): string => {
    const path = join(root, relativePath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  write('fixtures/market/es-sample.csv', ES_SAMPLE_CSV);
  return { root, write };
}

/** The ScenarioError that `load` throws; any other outcome fails the test. */
export function scenarioErrorOf(load: () => unknown): ScenarioError {
  try {
    load();
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
  throw new Error('expected a ScenarioError');
}
