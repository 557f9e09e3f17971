// docs/backtesting.md#signal-or-noise prints the constants the code uses: each number below is derived from the
// code and looked for, written as the docs write it, in that section. A constant changed on one side only fails.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  fewestDiscordant,
  tradersForDifference,
  Z_POWER_80,
  zForComparisons,
} from '../../src/backtest/detectable-difference.js';
import { Z_95 } from '../../src/backtest/statistics.js';

const docs = readFileSync(fileURLToPath(new URL('../../docs/backtesting.md', import.meta.url)), 'utf8');
const section = docs.slice(docs.indexOf('### Signal or noise'), docs.indexOf('## Outputs'));
const six = (x: number) => x.toFixed(6);

describe('docs/backtesting.md#signal-or-noise prints the code constants', () => {
  it('z of 95 % and of 80 % power, six places', () => {
    expect(section).toContain(`z = Φ⁻¹(0.975) = ${six(Z_95)}`);
    expect(section).toContain(`(z_m + ${six(Z_POWER_80)})·√(Σ dᵢ²)/N`);
    expect(section).toContain(`${six(Z_POWER_80)} = Φ⁻¹(0.80)`);
  });

  it('the bundled sweep (33 comparisons): z_m, (z_m + z_power)², the fewest discordant and the traders for 2 points', () => {
    const z = zForComparisons(33);
    expect(section).toContain(`(${six(z)} for m = 33)`);
    expect(section).toContain(`(${six(z)} + ${six(Z_POWER_80)})² = ${six((z + Z_POWER_80) ** 2)}`);
    expect(section).toContain(`2/2ᵏ < 0.05/m: ${fewestDiscordant(33)} for m = 33`);
    const byPower = Math.ceil(((z + Z_POWER_80) ** 2 * 0.013) / 0.0004);
    expect(section).toContain(`⌈${six((z + Z_POWER_80) ** 2)}·0.013/0.0004⌉ = ${byPower}`);
    expect(section).toContain(`${fewestDiscordant(33)}/0.02 = ${tradersForDifference(0.02, 0.013, 33)}`);
  });
});
