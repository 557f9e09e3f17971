// The steps of the account model (test/model/account-model-sim.ts) as the step helpers see them: what a step was,
// what the verifier reads of each account before it, and the part of the simulation a step acts through.
import type { AccountCommandType } from '../../src/core/kernel/write/commands.js';
import type { Kernel } from '../../src/core/kernel/kernel.js';
import type { Order } from '../../src/core/orders/order-types.js';
import type { ModelAccount } from './account-model-ledger.js';
import type { FlatteningWatch } from './flattening-watch.js';
import type { ModelInstrument } from './model-instruments.js';

/** What the verifier needs of an account just before a step: read from the kernel, not the model. */
export interface Before {
  status: string;
  locks: readonly string[];
  triggerCents: number;
  /** Working orders the risk engine sent (flattening). */
  riskWorking: number;
  /** The instruments those orders close. */
  riskIn: ReadonlySet<string>;
}

export type Step =
  | {
      kind: 'print';
      symbol: string;
      ticks: number;
      client: { a: number; orderId: string; accepted: boolean } | undefined;
    }
  | { kind: 'fill'; a: number; accepted: boolean }
  | { kind: 'time'; rolled: boolean }
  | {
      kind: 'op';
      a: number;
      op: AccountCommandType | 'cancelRisk' | 'modifyRisk';
      accepted: boolean;
      shift?: { amountCents: number; floors: boolean };
    };

/** Counts of what the run went through, for the coverage report. */
export interface SeenCounts {
  steps: number;
  rolls: number;
  weeklyRolls: number;
  failed: number;
  passed: number;
  dailyBreaches: number;
  riskFills: number;
  clientFills: number;
  historicalFills: number;
  skipped: number;
  riskOrderRequests: number;
  drainRounds: number;
  multiInstrument: number;
}

/** What a step helper (operations, trades, fill checks) uses of the simulation. */
export interface StepSim {
  readonly kernel: Kernel;
  readonly accounts: ModelAccount[];
  readonly lastPrintTicks: Map<string, number>;
  readonly flattening: FlatteningWatch;
  readonly seen: SeenCounts;
  marketOpen(instrument: ModelInstrument): boolean;
  riskOrdersOf(i: number): Order[];
  snapshot(): Before[];
  finish(step: Step, before: readonly Before[], afterFills?: () => void): void;
  print(
    instrument: ModelInstrument,
    ticks: number,
    client: { a: number; orderId: string; accepted: boolean } | undefined,
    before?: Before[],
  ): void;
  count(event: string | undefined): void;
}
