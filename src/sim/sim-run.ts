// Runs a plan against the real app (docs/api.md#the-simulation): each step's requests go through inject, the
// subscribers through a loopback listener; every answer is checked as it comes, the state every few steps, after
// every restart and at the end. The first broken invariant stops the run and is its result. This file is the loop
// over the steps; the requests they send are sim-run-requests.ts, the step kinds with checks of their own
// sim-run-races.ts, sim-run-storm.ts and sim-run-crash.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expectThat, InvariantFailure, type InvariantName } from './sim-failure.js';
import { learnUnanswered } from './sim-learn.js';
import { sandboxConfigOf, type SimPlan } from './sim-plan.js';
import { cleanRestart, crash } from './sim-run-crash.js';
import { abort, slow, together } from './sim-run-races.js';
import { RunRequests, type RunOptions } from './sim-run-requests.js';
import { storm } from './sim-run-storm.js';
import type { ClientCall, Step } from './sim-steps.js';
import { nextTurn, SimSystem } from './sim-system.js';

export type { RunOptions } from './sim-run-requests.js';

export interface RunFailure {
  invariant: InvariantName;
  message: string;
  /** The index of the step it broke at (steps.length: the checks at the end). */
  step: number;
}

export interface RunResult {
  failure?: RunFailure;
  steps: number;
  requests: number;
  crashes: number;
  /** How many answers of each kind (`202`, `404 account_not_found`, …) the run got. */
  answers: Record<string, number>;
  /** The SQLite file of a failed run, kept for a look. */
  dbFile?: string;
}

export async function runPlan(plan: SimPlan, options: RunOptions): Promise<RunResult> {
  const folder = mkdtempSync(join(options.dbDir, 'propsim-sim-'));
  const run = new SimRun(plan, join(folder, 'sandbox.sqlite'), options);
  // An error that escapes the app would end a real server's process: it fails the run.
  const escaped = (error: unknown) => run.escaped(error);
  process.on('unhandledRejection', escaped);
  process.on('uncaughtException', escaped);
  let failure: RunFailure | undefined;
  try {
    failure = await run.all();
    await run.stop(failure !== undefined);
  } finally {
    process.off('unhandledRejection', escaped);
    process.off('uncaughtException', escaped);
  }
  if (!failure) rmSync(folder, { recursive: true, force: true });
  return {
    ...(failure ? { failure, dbFile: run.file } : {}),
    steps: run.stepsRun,
    requests: run.requests,
    crashes: run.crashes,
    answers: run.answers,
  };
}

/** The loop over a plan's steps; the requests and the state they share are RunRequests'. */
class SimRun extends RunRequests {
  /** The step under way. */
  private pending: Promise<void> | undefined;

  /** Every step, then the checks at the end; the first broken invariant, or undefined. */
  async all(): Promise<RunFailure | undefined> {
    try {
      const config = sandboxConfigOf(this.plan.settings, (message) => this.warnings.push(message));
      this.system = await SimSystem.start(this.file, config, this.options.hooks);
      // The start's own journal lines (the seed) are on disk before the first step, as after any step: a crash
      // that comes first then tests what it should, not how fast the writer's first commit was.
      await this.system.quiesce();
      for (this.step = 0; this.step < this.plan.steps.length; this.step++) {
        this.pending = this.run(this.plan.steps[this.step]!);
        this.pending.catch(() => undefined); // the run may stop waiting for it (an escaped error): see stop()
        await Promise.race([this.pending, this.died]);
        this.stepsRun++;
        await this.afterStep();
        if ((this.step + 1) % this.plan.settings.checkEvery === 0) await this.checkState();
      }
      await this.checkState();
      await cleanRestart(this);
      return undefined;
    } catch (error) {
      if (!(error instanceof InvariantFailure)) throw error;
      return { invariant: error.invariant, message: error.message, step: this.step };
    }
  }

  /** Closes what the run left open: a failed run's system may be half dead, so it is killed instead. */
  async stop(failed: boolean): Promise<void> {
    this.subscribers.close();
    if (!this.system) return;
    if (!failed) return this.system.close();
    // A step the run stopped waiting for may still be restarting the system: give it a moment to settle.
    const settled = this.pending?.catch(() => undefined);
    await Promise.race([settled, new Promise((settle) => setTimeout(settle, 2000))]);
    await this.system.retire();
  }

  /** A step that may reset: the subscribers are checked before it, and compare from the reset on after it. */
  private async run(step: Step): Promise<void> {
    const resets = callsOf(step).some((c) => c.call.op === 'reset');
    if (resets) await this.subscribers.check(this.system);
    await this.runStep(step);
    if (resets && step.do !== 'crash') this.subscribers.rebaseline(this.system);
  }

  private async runStep(step: Step): Promise<void> {
    switch (step.do) {
      case 'call': {
        if (step.first) await this.runStep({ do: 'call', ...step.first });
        const sent = this.begin(step, false);
        this.judge(sent, await this.answered(sent));
        return;
      }
      case 'together':
        return together(this, step.calls);
      case 'abort':
        return abort(this, step);
      case 'slow':
        return slow(this, step);
      case 'storm':
        return storm(this, step.count);
      case 'burst':
        return together(
          this,
          Array.from({ length: step.count }, () => ({
            client: step.client,
            call: { op: 'read', what: 'balances', ref: 1 },
          })),
        );
      case 'subscribe':
        return this.subscribers.subscribe(step, {
          clients: this.plan.clients,
          cast: this.cast,
          model: this.model,
          system: this.system,
        });
      case 'crash':
        return crash(this, step);
      case 'wall':
        this.model.clockAtReset = undefined;
        return this.system.passWall(step.ms);
    }
  }

  /** After every step: nothing waits for the store; aborted requests are settled; a reset still holds. */
  private async afterStep(): Promise<void> {
    await Promise.race([this.system.quiesce(), this.died]);
    for (let turn = 0; turn < 3; turn++) await nextTurn();
    await this.system.quiesce();
    for (const sent of this.unanswered) {
      this.release(sent, true);
      if (this.system.shadow.linesOf(sent.no) > 0)
        learnUnanswered(sent, { model: this.model, cast: this.cast, startMs: this.startMs });
    }
    this.unanswered = [];
    if (this.model.clockAtReset !== undefined)
      expectThat(
        this.sandbox.kernel.nowMs === this.model.clockAtReset,
        'reset',
        () =>
          `a reset was answered and nothing has moved the clock since, but it reads ${this.sandbox.kernel.nowMs}, not the start ${this.model.clockAtReset}`,
      );
  }
}

function callsOf(step: Step): ClientCall[] {
  switch (step.do) {
    case 'call':
      return [...(step.first ? [step.first] : []), step];
    case 'abort':
      return [step];
    case 'slow':
      return [...(step.first ? [step.first] : []), step, step.meanwhile];
    case 'together':
      return step.calls;
    case 'crash':
      return step.inFlight;
    default:
      return [];
  }
}
