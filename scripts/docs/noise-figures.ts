// The figures of docs/backtesting.md's "Signal or noise" and "How many traders" that depend on a run: the bundled
// one-month sweep is run once and its summary.json read, so the docs cannot drift from what
// the tool prints (npm test checks them, as every generated example).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectableDifference, fewestDiscordant, Z_POWER_80 } from '../../src/backtest/stats/detectable-difference.js';
import type { PropsimRun, Scratch } from './run-propsim.js';

const SWEEP = 'fixtures/backtest/6e-january-2024.yaml';

interface Guidance {
  traders: number;
  discordance: string;
  comparisons: number;
  z: string;
  detectable_difference: string;
  discordance_95: { low: string; high: string };
  traders_for_difference: Array<{ difference: string; traders: number; low: number; high: number }>;
}

interface Decision {
  cell: number;
  metric: string;
  difference: string;
  low: string;
  high: string;
  p: string;
  p_adjusted: string;
  verdict: string;
  interval_level: string;
  rests_on?: { traders: number; settle: number };
}

interface Sweep {
  seed: number;
  cells: unknown[];
  guidance: Guidance;
  decisions: Decision[];
}

let sweep: Promise<Sweep> | undefined;

/** The sweep's summary.json, run once per process whichever example asks first. */
function sweepSummary(scratch: Scratch): Promise<Sweep> {
  sweep ??= (async () => {
    const out = scratch.path('noise-sweep');
    const run: PropsimRun = await scratch.propsim(['backtest', '--config', SWEEP, '--out', out, '--workers', '2']);
    if (run.status !== 0) throw new Error(`docs example: the bundled sweep exited ${run.status}\n${run.stderr}`);
    return JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Sweep;
  })();
  return sweep;
}

const pct = (fraction: string | number) => `${(Number(fraction) * 100).toFixed(1)} %`;
const n = (x: number) => x.toLocaleString('en-US');
const six = (x: number) => x.toFixed(6);

/** "Signal or noise" on the bundled sweep: its m, z_m, ψ with its interval, the traders needed, two verdicts. */
export async function noiseSweepFigures(scratch: Scratch): Promise<string> {
  const { seed, cells, guidance: g, decisions } = await sweepSummary(scratch);
  const z = Number(g.z);
  const two = g.traders_for_difference.find((t) => t.difference === '0.0200')!;
  const k = fewestDiscordant(g.comparisons);
  const net = decisions.filter((d) => d.metric === 'net_per_trader');
  const fewest = net.filter((d) => d.rests_on).map((d) => `#${d.cell}`);
  const failing = decisions.find((d) => d.metric === 'fail_rate' && d.verdict === 'differs');
  return [
    `On the bundled one-month sweep (\`${SWEEP}\`, seed ${seed}: ${cells.length} cells × ${n(g.traders)} traders, so m = ${g.comparisons}`,
    `comparisons), z_m = ${z.toFixed(4)} and (z_m + ${six(Z_POWER_80)})² = ${((z + Z_POWER_80) ** 2).toFixed(4)}. ψ = ${pct(g.discordance)} of the traders`,
    `pass in one cell and not in #0, on average over the cells (95 % interval ${pct(g.discordance_95.low)} to ${pct(g.discordance_95.high)}), so the run`,
    `resolves differences in pass rate of about ${pct(g.detectable_difference).replace(' %', ' points')}, and 2 points need about ${n(two.traders)} traders a cell (${n(two.low)} to`,
    `${n(two.high)} over ψ's interval; ${k}/0.02 = ${n(Math.ceil(k / 0.02 - 1e-9))} is the least with which the exact test can reach 0.05/${g.comparisons}).`,
    ...(failing
      ? [
          `A verdict from that run: cell #${failing.cell}'s failure rate is ${signedPoints(failing.difference)} against #0, its interval at Holm's level`,
          `(${(100 * (1 - Number(failing.interval_level))).toFixed(2)} %) ${signedPoints(failing.low)} to ${signedPoints(failing.high)}, p ${pText(failing.p)}, adjusted ${pText(failing.p_adjusted)}: \`differs\`.`,
        ]
      : []),
    fewest.length === 0
      ? 'None of its net differences rests on fewer than ten traders.'
      : fewest.length === 1
        ? `The net difference of ${fewest[0]} rests on fewer than ten traders, and says so.`
        : `The net differences of ${fewest.join(', ')} rest on fewer than ten traders, and say so.`,
    '',
  ].join('\n');
}

/** "How many traders" on the bundled sweep: ψ, the traders for 2 points, and what --traders 1500 resolves. */
export async function tradersNeededFigures(scratch: Scratch): Promise<string> {
  const { guidance: g } = await sweepSummary(scratch);
  const two = g.traders_for_difference.find((t) => t.difference === '0.0200')!;
  const z = Number(g.z);
  const at1500 = (psi: number) => detectableDifference(psi * 1500, 1500, z);
  const psi = Number(g.discordance);
  return [
    `On the bundled sweep, where about ${pct(psi)} of the traders pass in one cell and not in #0, 2-point differences in`,
    `pass rate need about ${n(two.traders)} traders a cell (${n(two.low)} to ${n(two.high)}), and \`--traders 1500\` resolves about`,
    `${(at1500(psi) * 100).toFixed(1)} points (${(at1500(Number(g.discordance_95.low)) * 100).toFixed(1)} to ${(at1500(Number(g.discordance_95.high)) * 100).toFixed(1)}).`,
    '',
  ].join('\n');
}

function signedPoints(fraction: string): string {
  const x = Number(fraction) * 100;
  return `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(1)} points`;
}

function pText(p: string): string {
  return Number(p) < 0.0001 ? '< 0.0001' : `= ${p}`;
}
