// `propsim optimize` refuses to maximize a net that is fee income only (docs/optimizing.md#fee-income-only): with a
// funded stage whose payouts need 30 trade dates, two weeks pay nothing, so the net rises with the failure rate and the
// search would choose the harshest plan. `--allow-fees-only` runs it anyway, and the outputs say so.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../../cli/run-cli.js';

const SEARCH = fileURLToPath(new URL('./fixtures/search-6e.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'propsim-fees-only-'));
const config = join(dir, 'fees-only.yaml');
writeFileSync(
  config,
  readFileSync(SEARCH, 'utf8')
    .replace('../../../../fixtures/market/', fileURLToPath(new URL('../../../fixtures/market/', import.meta.url)))
    .replace(
      'economics: { price_paid: "150.00", payout_share: "0.90" }',
      [
        'economics:',
        '  evaluation: { fee: "165.00" }',
        '  funded: { plan: funded-50k-eod, payout: { min_days: 30, split: [ { trader: "0.9" } ] } }',
      ].join('\n'),
    ),
);

/** The search into dir/out, on one worker thread. */
const optimize = (out: string, ...flags: string[]) =>
  runCliAsync(['optimize', '--config', config, '--out', join(dir, out), '--workers', '1', ...flags]);

describe('optimize: maximizing a net that is fee income only', () => {
  it('is refused (exit 2) after the first stage, saying why and what to do, with nothing written', async () => {
    const { status, stdout, stderr } = await optimize('refused');
    expect(status, stderr).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'objective: maximize net_per_trader, and none of the 6 candidates run so far paid a payout in 9 trade dates: the net is fee income only, which rises as more traders fail, so the search would choose the harshest plan; run a period long enough for the funded stage to pay out (market.resample: { block_sessions: 5 } fills one from the market files), or pass --allow-fees-only to maximize fee income knowingly',
    );
    expect(readdirSync(dir).sort()).toEqual(['fees-only.yaml']);
  }, 60_000);

  it('runs with --allow-fees-only, and its outputs warn that the net is fee income only', async () => {
    const run = await optimize('allowed', '--allow-fees-only');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      'warning (no_payouts): the chosen plan paid no payout, so its net per trader is fee income only (chosen on it because of --allow-fees-only)',
    );
    const summary = JSON.parse(readFileSync(join(dir, 'allowed', 'summary.json'), 'utf8'));
    expect(summary.warnings.map((w: { code: string }) => w.code)).toEqual(['no_payouts']);
  }, 60_000);
});
