// Commands and per-run setups of the account model test (account.model.test.ts): one or two accounts, each on
// its own drawn risk profile, trading three instruments (model-instruments.ts: ES, NQ, 6E), driven by prints,
// historical fills, market orders, time moves, firm operations, and client cancels and modifies aimed at the
// risk engine's orders (which travel with a drawn latency).
import fc from 'fast-check';
import type { MaxDrawdownMode } from '../../src/core/accounts/plans.js';
import { modelPlan } from './model-plans.js';
import { ES, INSTRUMENTS } from './model-instruments.js';

/** The instrument of the minimal reproductions in account.model.test.ts. */
export const SYMBOL = ES.symbol;
export const STARTING_BALANCE_CENTS = 5_000_000;
/** The band prints and fills stay in, in ticks either side of each instrument's base (ES ±40 points: wide enough to
 * breach most floors). */
export const BAND_TICKS = 160;
export const MODES: readonly MaxDrawdownMode[] = ['static', 'realtime_balance', 'realtime_equity', 'eod_balance'];

export interface AccountSetup {
  mode: MaxDrawdownMode;
  valueCents: number;
  /** The cap offset (max_drawdown_limit); undefined for none. The static mode ignores it. */
  limitCents: number | undefined;
  dailyCents: number | undefined;
  commissionCents: number;
  targetCents: number;
}

export interface RunSetup {
  accounts: AccountSetup[];
  /** Days after the harness's Tuesday 09:00 CT start (0–3: Tuesday to Friday, all mid-session). */
  startDay: number;
  /** How long a client's cancel and modify take to reach the venue (new orders arrive at once). */
  cancelLatencyMs: number;
  modifyLatencyMs: number;
}

/** A price: a move from the last print (clamped to the band), or a point of the band. */
export type PriceMove = { delta: number } | { at: number };
export type Side = 'buy' | 'sell';

export type Command =
  | { kind: 'print'; k: number; move: PriceMove }
  | { kind: 'fill'; a: number; k: number; side: Side; quantity: number; move: PriceMove }
  /**
   * Historical fills that close the account's positions, one instrument a step (passing waits for a flat
   * account); a print of the k-th instrument when the account is flat.
   */
  | { kind: 'close'; a: number; k: number; move: PriceMove }
  /** Two historical fills, a buy at the last print and a sell `gainTicks` above it: a trade that nets some profit (or
   * loss), flat again. */
  | { kind: 'roundTrip'; a: number; k: number; quantity: number; gainTicks: number }
  | { kind: 'market'; a: number; k: number; side: Side; quantity: number; move: PriceMove }
  | { kind: 'advance'; minutes: number }
  | { kind: 'wait'; ms: number }
  | { kind: 'toRoll'; minutesAfter: number }
  | { kind: 'jump'; hours: number }
  | { kind: 'adjust'; a: number; amountCents: number; shift: boolean }
  | { kind: 'dailyTrigger'; a: number; offsetCents: number }
  | { kind: 'reanchor'; a: number }
  | { kind: 'lockout'; a: number; flatten: boolean }
  | { kind: 'unlock'; a: number }
  | { kind: 'maxLossLimit'; a: number; limitCents: number | null }
  | { kind: 'flatten'; a: number }
  | { kind: 'cancelAll'; a: number }
  /** A client's DELETE, or PATCH to `quantity`, of the account's n-th working risk order (if any). */
  | { kind: 'cancelRisk'; a: number; n: number }
  | { kind: 'modifyRisk'; a: number; n: number; quantity: number };

/** Whole dollars in steps of `step`, as cents. */
const dollars = (min: number, max: number, step: number) =>
  fc.integer({ min: min / step, max: max / step }).map((n) => n * step * 100);

export const accountSetupArb: fc.Arbitrary<AccountSetup> = fc.record({
  mode: fc.constantFrom(...MODES),
  valueCents: dollars(250, 3000, 50),
  limitCents: fc.option(dollars(0, 2500, 50), { nil: undefined }),
  dailyCents: fc.option(dollars(100, 1500, 50), { nil: undefined }),
  commissionCents: fc.integer({ min: 0, max: 500 }),
  targetCents: dollars(50, 1500, 50),
});

export const setupArb: fc.Arbitrary<RunSetup> = fc.record({
  accounts: fc.array(accountSetupArb, { minLength: 1, maxLength: 2 }),
  startDay: fc.integer({ min: 0, max: 3 }),
  cancelLatencyMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 })),
  modifyLatencyMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 })),
});

const a = fc.nat({ max: 1 });
const k = fc.nat({ max: INSTRUMENTS.length - 1 });
const side = fc.constantFrom<Side>('buy', 'sell');
const quantity = fc.integer({ min: 1, max: 3 });
const move: fc.Arbitrary<PriceMove> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -32, max: 32 }).map((delta) => ({ delta })) },
  { weight: 1, arbitrary: fc.integer({ min: -BAND_TICKS, max: BAND_TICKS }).map((at) => ({ at })) },
);
const signedCents = fc
  .tuple(fc.integer({ min: 1, max: 250_000 }), fc.boolean())
  .map(([c, negative]) => (negative ? -c : c));

export const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('print' as const), k, move }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('fill' as const), a, k, side, quantity, move }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('market' as const), a, k, side, quantity, move }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('close' as const), a, k, move }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('roundTrip' as const),
      a,
      k,
      quantity,
      gainTicks: fc.integer({ min: -8, max: 40 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 0, max: 180 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 400 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('toRoll' as const), minutesAfter: fc.integer({ min: -90, max: 10 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('jump' as const), hours: fc.integer({ min: 20, max: 62 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('adjust' as const), a, amountCents: signedCents, shift: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('dailyTrigger' as const),
      a,
      offsetCents: fc.integer({ min: -100_000, max: 30_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reanchor' as const), a }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('lockout' as const), a, flatten: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unlock' as const), a }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('maxLossLimit' as const),
      a,
      limitCents: fc.option(dollars(0, 3000, 50), { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('flatten' as const), a }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), a }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancelRisk' as const), a, n: fc.nat(2) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('modifyRisk' as const),
      a,
      n: fc.nat(2),
      quantity: fc.integer({ min: 1, max: 6 }),
    }),
  },
);

/** Integer cents as a decimal string, "-12.05". */
export function centsText(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A decimal string of at most 2 places as integer cents. */
export function textCents(text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new Error(`not a money string: ${text}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '0').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/** A move from the last print, or a point of the band, in ticks of an instrument whose base is `baseTicks`. */
export function resolvePrice(move: PriceMove, lastTicks: number, baseTicks: number): number {
  const ticks = 'delta' in move ? lastTicks + move.delta : baseTicks + move.at;
  return Math.min(baseTicks + BAND_TICKS, Math.max(baseTicks - BAND_TICKS, ticks));
}

/** The account's plan, written as open_account takes it. */
export function planOf(setup: AccountSetup): Record<string, unknown> {
  return modelPlan({
    risk_profile: {
      max_drawdown_mode: setup.mode,
      max_drawdown_value: centsText(setup.valueCents),
      ...(setup.limitCents === undefined ? {} : { max_drawdown_limit: centsText(setup.limitCents) }),
      ...(setup.dailyCents === undefined ? {} : { daily_loss_value: centsText(setup.dailyCents) }),
    },
    passing_criteria: { profit_target: centsText(setup.targetCents) },
    commission_per_contract: centsText(setup.commissionCents),
  });
}
