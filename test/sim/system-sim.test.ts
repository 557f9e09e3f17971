// The whole-system simulation in the test suite (docs/api.md#the-simulation): a budget of seeds through every
// invariant, and a bug planted in the app to show that the simulation catches it, shrinks it to the few steps that
// matter, and that the failure file replays it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planOf, type SimPlan } from '../../src/sim/sim-plan.js';
import { readPlanFile, writePlanFile } from '../../src/sim/sim-plan-file.js';
import { runPlan, type RunOptions } from '../../src/sim/sim-run.js';
import { runSeeds } from '../../src/sim/sim-seeds.js';
import { shrink } from '../../src/sim/sim-shrink.js';
import type { Step } from '../../src/sim/sim-steps.js';
import type { SimHooks } from '../../src/sim/sim-system.js';

/** Seeds × steps the suite runs: 9,000 steps, some 20 s alone on a 2-core machine. */
const SEEDS = 30;
const STEPS = 300;

const folder = mkdtempSync(join(tmpdir(), 'propsim-sim-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const run: RunOptions = { dbDir: folder };

describe('the whole-system simulation', () => {
  it(`holds every invariant over seeds 1..${SEEDS} of ${STEPS} steps`, { timeout: 300_000 }, async () => {
    const lines: string[] = [];
    const summary = await runSeeds({
      from: 1,
      to: SEEDS,
      steps: STEPS,
      clients: 8,
      checkEvery: 25,
      durationMs: undefined,
      outDir: join(folder, 'failures'),
      shrinkRuns: 0,
      run,
      print: (line) => lines.push(line),
    });
    const failed = summary.failures.map((f) => `seed ${f.seed}: ${f.failure.invariant}: ${f.failure.message}`);
    expect(failed, `rerun one with: npm run sim -- --seed N --steps ${STEPS}\n${lines.join('\n')}`).toEqual([]);
    expect(summary.seeds).toBe(SEEDS);
    expect(summary.steps).toBe(SEEDS * STEPS);
    // The runs did what the simulation is for: requests, and crashes with restarts.
    expect(summary.requests).toBeGreaterThan(summary.steps);
    expect(summary.crashes).toBeGreaterThan(SEEDS);
  });

  describe('a planted bug: every logout answers 500', () => {
    const logoutFails: SimHooks = {
      afterBuild(app) {
        app.addHook('preHandler', async (request) => {
          if (request.url === '/v1/auth/logout') throw new Error('planted: logout breaks');
        });
      },
    };
    const withBug: RunOptions = { ...run, hooks: logoutFails };
    /** Seed 1's plan with a trader's login and logout put in the middle: the shrinker must find those two. */
    const plan: SimPlan = (() => {
      const seedPlan = planOf({ seed: 1, steps: 120, clients: 8 });
      const trader = seedPlan.clients.findIndex((c) => c.kind === 'trader');
      const session: Step[] = [
        { do: 'call', client: trader, call: { op: 'login', email: 0 }, token: 0 },
        { do: 'call', client: trader, call: { op: 'logout' }, token: 0 },
      ];
      return { ...seedPlan, steps: [...seedPlan.steps.slice(0, 60), ...session, ...seedPlan.steps.slice(60)] };
    })();

    it(
      'is caught, shrunk to a login and a logout, and replayed from its failure file',
      { timeout: 300_000 },
      async () => {
        const result = await runPlan(plan, withBug);
        expect(result.failure?.invariant).toBe('unexpected-5xx');
        expect(result.failure?.message).toMatch(/logout.*answered 500/);

        const shrunk = await shrink(plan, result.failure!, { run: (p) => runPlan(p, withBug), maxRuns: 200 });
        expect(shrunk.failure.invariant).toBe('unexpected-5xx');
        // A logout needs a session: the smallest plan that shows the bug logs in, then out.
        const ops = shrunk.plan.steps.map((s) => JSON.stringify(s).match(/"op":"(\w+)"/)?.[1]);
        expect(ops).toEqual(['login', 'logout']);

        const file = join(folder, 'planted.json');
        writePlanFile(file, shrunk.plan, shrunk.failure, plan.steps.length);
        const replayed = readPlanFile(file).plan;
        expect(replayed).toEqual(shrunk.plan);
        expect((await runPlan(replayed, withBug)).failure?.invariant).toBe('unexpected-5xx');
        // Without the bug the same steps pass: it is the bug the steps show, not the steps.
        expect((await runPlan(replayed, run)).failure).toBeUndefined();
      },
    );
  });
});
