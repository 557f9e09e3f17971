// A scenario's steps placed among its market prints (docs/scenarios.md#timing): the prints arrive as a stream
// of batches in (time, file, line) order, and each step runs once every print it must follow has been applied.
// A clock step (`at`, `advance`) to time T follows every print stamped at or before T; the steps after it run at
// T, before any later print. Once the last step has run, later prints are not read.
import type { Kernel } from '../core/kernel/kernel.js';
import type { TickBatch } from '../market/tick-batch.js';
import { CanonicalSymbols } from '../market/canonical-symbols.js';
import type { PricePaths } from './price-paths.js';
import type { ScenarioStep } from './scenario-types.js';

export type ClockStep = Extract<ScenarioStep, { kind: 'at' | 'advance' }>;
export type ActionStep = Exclude<ScenarioStep, ClockStep>;

export interface StepActions {
  /** Moves the clock for a clock step (its prints are all in). */
  advance(step: ClockStep): void;
  run(step: ActionStep): void;
  /** After every step. */
  afterStep(step: ScenarioStep): void;
  /** Where each print the kernel applied is kept, for the report's charts. */
  prices?: PricePaths;
  onProgress?: (printsReplayed: number, timeMs: number) => void;
}

export class StepsBetweenPrints {
  printsReplayed = 0;
  /** Prints stamped before the scenario's start: the clock cannot go back for them. */
  printsBeforeStart = 0;
  private nextStep = 0;
  /** Prints up to this time go before the next step. */
  private boundaryMs: number;
  /** A clock step waiting for the prints up to its time. */
  private pendingClock: ClockStep | undefined;
  private readonly symbols = new CanonicalSymbols();

  constructor(
    private readonly kernel: Kernel,
    private readonly steps: readonly ScenarioStep[],
    startMs: number,
    private readonly actions: StepActions,
  ) {
    this.boundaryMs = startMs;
  }

  /** Applies a batch, running the steps that come due between its prints; false once every step has run. */
  take(batch: TickBatch): boolean {
    for (let row = 0; row < batch.length; row++) {
      const timeMs = batch.timeMs[row]!;
      while (timeMs > this.boundaryMs) {
        if (this.done) return false;
        this.runDueSteps();
      }
      const symbol = this.symbols.of(batch, row);
      const priceTicks = batch.priceTicks[row]!;
      if (!this.kernel.print(symbol, priceTicks, batch.size[row]!, timeMs)) this.printsBeforeStart++;
      else {
        this.actions.prices?.addIndexed(batch.instrumentIndex[row]!, symbol, priceTicks, timeMs);
        this.printsReplayed++;
        if (this.actions.onProgress && this.printsReplayed % 100_000 === 0)
          this.actions.onProgress(this.printsReplayed, timeMs);
      }
    }
    return true;
  }

  /** The prints have ended (or were all read): the remaining steps run. */
  finish(): void {
    while (!this.done) this.runDueSteps();
  }

  private get done(): boolean {
    return this.pendingClock === undefined && this.nextStep >= this.steps.length;
  }

  /** The waiting clock step, then the steps after it up to the next clock step, which then waits. */
  private runDueSteps(): void {
    if (this.pendingClock) {
      const clock = this.pendingClock;
      this.actions.advance(clock);
      this.pendingClock = undefined;
      this.actions.afterStep(clock);
    }
    while (this.nextStep < this.steps.length) {
      const step = this.steps[this.nextStep++]!;
      if (step.kind === 'at' || step.kind === 'advance') {
        this.pendingClock = step;
        this.boundaryMs = step.timeMs;
        return;
      }
      this.actions.run(step);
      this.actions.afterStep(step);
    }
  }
}
