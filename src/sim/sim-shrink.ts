// Shrinking a failing plan (docs/api.md#the-simulation): delta debugging over its steps. The steps after the one
// that failed go first; then ever smaller chunks are dropped, each drop kept when a run without it still breaks
// the same invariant, until no single step can go; last, the requests of a step that sends several (at once, or
// on their way at a crash) are dropped one by one the same way. Steps name what they act on by position, so any
// subset of them still runs.
import type { SimPlan } from './sim-plan.js';
import type { RunFailure, RunResult } from './sim-run.js';
import type { Step } from './sim-steps.js';

export interface ShrinkOptions {
  run(plan: SimPlan): Promise<RunResult>;
  /** At most this many runs (each a fresh sandbox). */
  maxRuns: number;
  /** Told of each smaller plan found. */
  progress?(steps: number, runs: number): void;
}

export interface Shrunk {
  plan: SimPlan;
  failure: RunFailure;
  runs: number;
}

export async function shrink(plan: SimPlan, failure: RunFailure, options: ShrinkOptions): Promise<Shrunk> {
  let best: Shrunk = { plan, failure, runs: 0 };
  let runs = 0;
  /** Whether the plan with these steps breaks the same invariant; the smallest such plan is kept. */
  const fails = async (steps: Step[]): Promise<boolean> => {
    if (runs >= options.maxRuns) return false;
    runs++;
    const candidate = { ...plan, steps };
    const result = await options.run(candidate);
    if (result.failure?.invariant !== failure.invariant) return false;
    best = { plan: { ...candidate, steps: steps.slice(0, result.failure.step + 1) }, failure: result.failure, runs };
    options.progress?.(best.plan.steps.length, runs);
    return true;
  };
  const truncated = plan.steps.slice(0, failure.step + 1);
  if (truncated.length < plan.steps.length) await fails(truncated);
  let chunks = 2;
  while (best.plan.steps.length > 1 && runs < options.maxRuns) {
    const steps = best.plan.steps;
    const size = Math.ceil(steps.length / chunks);
    let dropped = false;
    // From the end: late steps depend on early ones (an order on an account), rarely the other way round.
    for (let start = Math.floor((steps.length - 1) / size) * size; start >= 0; start -= size) {
      const without = [...steps.slice(0, start), ...steps.slice(start + size)];
      if (without.length > 0 && (await fails(without))) {
        dropped = true;
        break;
      }
    }
    if (dropped) chunks = Math.max(chunks - 1, 2);
    else if (size === 1) break;
    else chunks = Math.min(chunks * 2, steps.length);
  }
  for (let i = 0; i < best.plan.steps.length && runs < options.maxRuns; i++)
    for (let call = callsOf(best.plan.steps[i]!).length - 1; call >= 0 && i < best.plan.steps.length; call--) {
      const steps = best.plan.steps;
      const fewer = withoutCall(steps[i]!, call);
      if (fewer) await fails([...steps.slice(0, i), fewer, ...steps.slice(i + 1)]);
    }
  return { ...best, runs };
}

function callsOf(step: Step): readonly unknown[] {
  return step.do === 'together' ? step.calls : step.do === 'crash' ? step.inFlight : [];
}

/** The step without its `index`-th request; undefined when that would leave a group of requests with one. */
function withoutCall(step: Step, index: number): Step | undefined {
  if (step.do === 'together')
    return step.calls.length > 2 ? { ...step, calls: step.calls.filter((_, i) => i !== index) } : undefined;
  if (step.do === 'crash') return { ...step, inFlight: step.inFlight.filter((_, i) => i !== index) };
  return undefined;
}
