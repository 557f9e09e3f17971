// Runs seeds one after another (docs/api.md#the-simulation), for a range of seeds or a length of time: each seed's
// plan, then, when it fails, the shrunk plan written to a failure file and printed. What a long run covered is
// counted as it goes, so a run stopped by its --duration still says what it did.
import { join } from 'node:path';
import { castOf } from './sim-clients.js';
import { planOf, simSeed, type SimPlan } from './sim-plan.js';
import { writePlanFile } from './sim-plan-file.js';
import { runPlan, type RunFailure, type RunOptions, type RunResult } from './sim-run.js';
import { shrink } from './sim-shrink.js';

export interface SeedsRequest {
  from: number;
  to: number;
  steps: number;
  clients: number;
  checkEvery: number;
  /** Stop starting seeds after this much wall time (undefined: run the whole range). */
  durationMs: number | undefined;
  /** Where failure files go. */
  outDir: string;
  /** Shrinking runs per failure (0: no shrinking). */
  shrinkRuns: number;
  run: RunOptions;
  print(line: string): void;
}

export interface SeedsSummary {
  seeds: number;
  steps: number;
  requests: number;
  crashes: number;
  wallMs: number;
  /** The wall time of the seeds' own runs, shrinking left out: what steps a second are counted over. */
  runMs: number;
  failures: Array<{ seed: number; failure: RunFailure; file: string; steps: number }>;
}

export async function runSeeds(request: SeedsRequest): Promise<SeedsSummary> {
  const cast = castOf(simSeed());
  const startedMs = performance.now();
  const summary: SeedsSummary = { seeds: 0, steps: 0, requests: 0, crashes: 0, wallMs: 0, runMs: 0, failures: [] };
  for (let seed = request.from; seed <= request.to; seed++) {
    if (request.durationMs !== undefined && performance.now() - startedMs >= request.durationMs) break;
    const plan = planOf({ seed, steps: request.steps, clients: request.clients, checkEvery: request.checkEvery }, cast);
    const seedStartedMs = performance.now();
    const result = await runPlan(plan, request.run);
    summary.runMs += performance.now() - seedStartedMs;
    summary.seeds++;
    summary.steps += result.steps;
    summary.requests += result.requests;
    summary.crashes += result.crashes;
    const seconds = ((performance.now() - seedStartedMs) / 1000).toFixed(1);
    if (!result.failure) {
      request.print(
        `seed ${seed}: PASS  ${result.steps} steps, ${result.requests} requests, ${result.crashes} crashes (${seconds} s)`,
      );
      continue;
    }
    request.print(`seed ${seed}: FAIL  ${describeFailure(result.failure)} (${seconds} s; db ${result.dbFile})`);
    summary.failures.push(await shrinkAndWrite(plan, result, request));
  }
  summary.wallMs = performance.now() - startedMs;
  return summary;
}

/** Shrinks a failing plan, writes its failure file and prints the steps that are left. */
async function shrinkAndWrite(
  plan: SimPlan,
  result: RunResult,
  request: SeedsRequest,
): Promise<SeedsSummary['failures'][number]> {
  let shrunk = { plan, failure: result.failure!, runs: 0 };
  if (request.shrinkRuns > 0) {
    request.print(`  shrinking (at most ${request.shrinkRuns} runs)…`);
    shrunk = await shrink(plan, result.failure!, {
      run: (candidate) => runPlan(candidate, request.run),
      maxRuns: request.shrinkRuns,
    });
    request.print(
      `  shrunk to ${shrunk.plan.steps.length} steps in ${shrunk.runs} runs: ${describeFailure(shrunk.failure)}`,
    );
  }
  const file = join(request.outDir, `seed-${plan.seed}.json`);
  writePlanFile(file, shrunk.plan, shrunk.failure, plan.steps.length);
  printSteps(shrunk.plan, request.print, 40);
  request.print(`  written to ${file}; run it again with: npm run sim -- --replay ${file}`);
  return { seed: plan.seed, failure: shrunk.failure, file, steps: shrunk.plan.steps.length };
}

export function describeFailure(failure: RunFailure): string {
  return `${failure.invariant} at step ${failure.step + 1}: ${failure.message}`;
}

/** The plan's clients, settings and (the first `most`) steps, one a line. */
export function printSteps(plan: SimPlan, print: (line: string) => void, most = Infinity): void {
  print(
    `  clients: ${plan.clients.map((c, i) => `#${i} ${c.kind}${c.kind === 'admin' ? '' : ` of firm #${c.firm}`}`).join(', ')}`,
  );
  print(`  settings: ${JSON.stringify(plan.settings)}`);
  plan.steps.slice(0, most).forEach((step, i) => print(`  ${String(i + 1).padStart(4)}. ${JSON.stringify(step)}`));
  if (plan.steps.length > most) print(`  … and ${plan.steps.length - most} more steps (in the file)`);
}
