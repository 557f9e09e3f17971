// The firm's whole funnel in a back-test config (docs/backtesting.md#the-funnel): `economics.evaluation` (the fee,
// its billing, resets) and `economics.funded` (the funded plan, its activation fee, the payout rules). Read here,
// beside backtest-config.ts, which calls `parseFunnel` from its economics reader.
import type { Static } from 'typebox';
import { at, fail, toCents, type Fields } from '../../core/validation/input-fields.js';
import { parsePlanTemplate } from '../../core/accounts/plans.js';
import { Dec } from '../../core/money.js';
import type { BacktestConfigFile } from './backtest-config-schema.js';
import type { PayoutRequest } from '../funnel/payout-cadence.js';

/** `economics` as the config's schema checked it (backtest-config-schema.ts): keys, types and ranges. */
type EconomicsText = NonNullable<Static<typeof BacktestConfigFile>['economics']>;
type EvaluationText = NonNullable<EconomicsText['evaluation']>;
type FundedText = NonNullable<EconomicsText['funded']>;

export interface ResetRules {
  feeCents: number;
  /** The probability of a reset after a failure (by any rule), a decimal string in [0, 1] with at most 4 places. */
  rate: string;
  max: number;
}

export interface EvaluationEconomics {
  feeCents: number;
  billing: 'one_time' | 'monthly';
  reset?: ResetRules;
}

/** One tier of the trader's share: withdrawals (cumulative) up to `upToCents` are split at `trader`. */
export interface SplitTier {
  upToCents?: number;
  trader: string;
}

export interface PayoutRules {
  minDays: number;
  winningDayCents: number;
  minWinningDays: number;
  bufferCents: number;
  maxFraction: string;
  capCents?: number;
  consistencyPct?: string;
  split: SplitTier[];
  /** A payout below this is not taken; the trader waits (docs/backtesting.md#payout-cadence). */
  minAmountCents?: number;
  /** Trade dates since the funded start or the last payout before the next may be taken. */
  everyDays?: number;
  /** When an eligible trader asks: every session open (auto), or the first trade date of each week or month. */
  request: PayoutRequest;
  /** After this many payouts the trader moves to a live account, which the back-test does not follow. */
  maxCount?: number;
}

export interface FundedEconomics {
  planName: string;
  /** The funded plan as written (decimal strings), like the base plan. */
  plan: Fields;
  activationFeeCents: number;
  payout: PayoutRules;
}

export interface Funnel {
  evaluation: EvaluationEconomics;
  funded?: FundedEconomics;
}

/** Finds a plan by name as base_plan does (the config's `plans`, then plan files); what exists when unknown. */
export type PlanLookup = (name: string) => Fields | string;

/**
 * The funnel, or undefined when neither key is written (the evaluation-only economics of price_paid). The schema
 * checked every key; here, what it cannot say: no price_paid beside the funnel, the funded plan found, the split's
 * tiers in order.
 */
export function parseFunnel(doc: EconomicsText, findPlan: PlanLookup): Funnel | undefined {
  if (doc.evaluation === undefined && doc.funded === undefined) return undefined;
  for (const legacy of ['price_paid', 'payout_share'] as const)
    if (doc[legacy] !== undefined)
      fail(
        at('economics', legacy),
        'no price_paid or payout_share beside evaluation or funded: price_paid is a one-time evaluation fee ' +
          '(write evaluation.fee) and payout_share pays out of the evaluation (write funded.payout)',
        doc[legacy],
      );
  const evaluation =
    doc.evaluation === undefined
      ? { feeCents: 0, billing: 'one_time' as const }
      : evaluationOf(doc.evaluation, 'economics.evaluation');
  return {
    evaluation,
    ...(doc.funded === undefined ? {} : { funded: fundedOf(doc.funded, 'economics.funded', findPlan) }),
  };
}

function evaluationOf(doc: EvaluationText, path: string): EvaluationEconomics {
  const reset = doc.reset;
  return {
    feeCents: toCents(doc.fee, at(path, 'fee')),
    billing: doc.billing ?? 'one_time',
    ...(reset === undefined
      ? {}
      : {
          reset: {
            feeCents: toCents(reset.fee, at(path, 'reset.fee')),
            rate: fraction(reset.rate),
            max: reset.max,
          },
        }),
  };
}

function fundedOf(doc: FundedText, path: string, findPlan: PlanLookup): FundedEconomics {
  const plan = findPlan(doc.plan);
  if (typeof plan === 'string') return fail(at(path, 'plan'), plan, doc.plan);
  parsePlanTemplate(plan, at(path, 'plan'));
  return {
    planName: doc.plan,
    plan,
    activationFeeCents: doc.activation_fee === undefined ? 0 : toCents(doc.activation_fee, at(path, 'activation_fee')),
    payout: payoutOf(doc.payout, at(path, 'payout')),
  };
}

function payoutOf(doc: FundedText['payout'], path: string): PayoutRules {
  const money = (value: string | undefined, key: string, fallback: number) =>
    value === undefined ? fallback : toCents(value, at(path, key));
  return {
    minDays: doc.min_days ?? 0,
    winningDayCents: money(doc.winning_day, 'winning_day', 1),
    minWinningDays: doc.min_winning_days ?? 0,
    bufferCents: money(doc.buffer, 'buffer', 0),
    maxFraction: doc.max_fraction === undefined ? '1' : fraction(doc.max_fraction),
    ...(doc.cap === undefined ? {} : { capCents: toCents(doc.cap, at(path, 'cap')) }),
    ...(doc.consistency_pct === undefined ? {} : { consistencyPct: doc.consistency_pct }),
    split: splitOf(doc.split, at(path, 'split')),
    ...cadenceOf(doc, path),
  };
}

/** min_amount, every_days, request, max_count (docs/backtesting.md#payout-cadence); a min_amount above cap pays never. */
function cadenceOf(
  doc: FundedText['payout'],
  path: string,
): Pick<PayoutRules, 'minAmountCents' | 'everyDays' | 'request' | 'maxCount'> {
  const minAmountCents = doc.min_amount === undefined ? undefined : toCents(doc.min_amount, at(path, 'min_amount'));
  const capCents = doc.cap === undefined ? undefined : toCents(doc.cap, at(path, 'cap'));
  if (minAmountCents !== undefined && capCents !== undefined && minAmountCents > capCents)
    fail(
      at(path, 'min_amount'),
      `at most cap (${doc.cap}): a payout is never larger than cap, so none would ever be taken`,
      doc.min_amount,
    );
  return {
    ...(minAmountCents === undefined ? {} : { minAmountCents }),
    ...(doc.every_days === undefined ? {} : { everyDays: doc.every_days }),
    request: doc.request ?? 'auto',
    ...(doc.max_count === undefined ? {} : { maxCount: doc.max_count }),
  };
}

/** Tiers in order, each up_to above the last; the last has no up_to (it takes everything beyond). */
function splitOf(list: FundedText['payout']['split'], path: string): SplitTier[] {
  const tiers = list.map((tier, i) => ({
    ...(tier.up_to === undefined ? {} : { upToCents: toCents(tier.up_to, at(at(path, i), 'up_to')) }),
    trader: fraction(tier.trader),
  }));
  tiers.forEach((tier, i) => {
    const last = i === tiers.length - 1;
    if (last && tier.upToCents !== undefined)
      fail(at(at(path, i), 'up_to'), 'no up_to on the last tier: it takes every withdrawal beyond the others', tier);
    if (!last && tier.upToCents === undefined)
      fail(at(at(path, i), 'up_to'), 'an up_to on every tier but the last', undefined);
    const previous = tiers[i - 1]?.upToCents;
    if (!last && previous !== undefined && tier.upToCents! <= previous)
      fail(at(at(path, i), 'up_to'), `an amount above the previous tier's (${previous / 100})`, tier.upToCents! / 100);
  });
  return tiers;
}

/** A share or probability the schema checked (in [0, 1], at most 4 places), normalized as decimal.js writes it. */
function fraction(value: string): string {
  return new Dec(value).toFixed();
}
