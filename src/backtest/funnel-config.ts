// The firm's whole funnel in a back-test config (docs/backtesting.md#the-funnel): `economics.evaluation` (the fee,
// its billing, resets) and `economics.funded` (the funded plan, its activation fee, the payout rules). Read here,
// beside backtest-config.ts, which calls `parseFunnel` from its economics reader.
import {
  at,
  checkKeys,
  fail,
  readCents,
  readDecimal,
  readEnum,
  readFields,
  readInteger,
  readList,
  readString,
  required,
  type Fields,
} from '../core/accounts/input-fields.js';
import { parsePlanTemplate } from '../core/accounts/plans.js';

export const FUNNEL_KEYS = ['evaluation', 'funded'] as const;

export interface ResetRules {
  feeCents: number;
  /** The probability of a reset after a max-loss failure, a decimal string in [0, 1] with at most 4 places. */
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

/** The funnel, or undefined when neither key is written (the evaluation-only economics of price_paid). */
export function parseFunnel(doc: Fields, findPlan: PlanLookup): Funnel | undefined {
  if (doc.evaluation === undefined && doc.funded === undefined) return undefined;
  for (const legacy of ['price_paid', 'payout_share'])
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
      : parseEvaluation(doc.evaluation, 'economics.evaluation');
  return {
    evaluation,
    ...(doc.funded === undefined ? {} : { funded: parseFunded(doc.funded, 'economics.funded', findPlan) }),
  };
}

function parseEvaluation(raw: unknown, path: string): EvaluationEconomics {
  const doc = readFields(raw, path, '{ fee, billing, reset }');
  checkKeys(doc, path, ['fee', 'billing', 'reset']);
  return {
    feeCents: readCents(required(doc.fee, at(path, 'fee'), 'a decimal string'), at(path, 'fee'), 'non_negative'),
    billing:
      doc.billing === undefined
        ? 'one_time'
        : readEnum(doc.billing, at(path, 'billing'), ['one_time', 'monthly'] as const),
    ...(doc.reset === undefined ? {} : { reset: parseReset(doc.reset, at(path, 'reset')) }),
  };
}

function parseReset(raw: unknown, path: string): ResetRules {
  const doc = readFields(raw, path, '{ fee, rate, max }');
  checkKeys(doc, path, ['fee', 'rate', 'max']);
  return {
    feeCents: readCents(required(doc.fee, at(path, 'fee'), 'a decimal string'), at(path, 'fee'), 'non_negative'),
    rate: readFraction(required(doc.rate, at(path, 'rate'), 'a probability'), at(path, 'rate')),
    max: readInteger(required(doc.max, at(path, 'max'), 'a number of resets'), at(path, 'max'), { min: 0 }),
  };
}

function parseFunded(raw: unknown, path: string, findPlan: PlanLookup): FundedEconomics {
  const doc = readFields(raw, path, '{ plan, activation_fee, payout }');
  checkKeys(doc, path, ['plan', 'activation_fee', 'payout']);
  const planName = readString(required(doc.plan, at(path, 'plan'), 'the name of the funded plan'), at(path, 'plan'));
  const plan = findPlan(planName);
  if (typeof plan === 'string') return fail(at(path, 'plan'), plan, planName);
  parsePlanTemplate(plan, at(path, 'plan'));
  return {
    planName,
    plan,
    activationFeeCents:
      doc.activation_fee === undefined ? 0 : readCents(doc.activation_fee, at(path, 'activation_fee'), 'non_negative'),
    payout: parsePayout(required(doc.payout, at(path, 'payout'), 'the payout rules'), at(path, 'payout')),
  };
}

const PAYOUT_KEYS = [
  'min_days',
  'winning_day',
  'min_winning_days',
  'buffer',
  'max_fraction',
  'cap',
  'consistency_pct',
  'split',
];

function parsePayout(raw: unknown, path: string): PayoutRules {
  const doc = readFields(raw, path, `{ ${PAYOUT_KEYS.join(', ')} }`);
  checkKeys(doc, path, PAYOUT_KEYS);
  const count = (key: string) => (doc[key] === undefined ? 0 : readInteger(doc[key], at(path, key), { min: 0 }));
  const money = (key: string, fallback: number) =>
    doc[key] === undefined ? fallback : readCents(doc[key], at(path, key), 'non_negative');
  const pct = doc.consistency_pct;
  if (pct !== undefined) {
    const value = readDecimal(pct, at(path, 'consistency_pct'), { maxPlaces: 2, sign: 'positive', example: '30' });
    if (value.greaterThan(100)) fail(at(path, 'consistency_pct'), 'a percentage above 0 and at most "100"', pct);
  }
  return {
    minDays: count('min_days'),
    winningDayCents: money('winning_day', 1),
    minWinningDays: count('min_winning_days'),
    bufferCents: money('buffer', 0),
    maxFraction: doc.max_fraction === undefined ? '1' : readFraction(doc.max_fraction, at(path, 'max_fraction')),
    ...(doc.cap === undefined ? {} : { capCents: readCents(doc.cap, at(path, 'cap'), 'positive') }),
    ...(pct === undefined ? {} : { consistencyPct: String(pct) }),
    split: parseSplit(required(doc.split, at(path, 'split'), 'a list of tiers'), at(path, 'split')),
  };
}

/** Tiers in order, each up_to above the last; the last has no up_to (it takes everything beyond). */
function parseSplit(raw: unknown, path: string): SplitTier[] {
  const tiers = readList(
    raw,
    path,
    (item, itemPath) => {
      const doc = readFields(item, itemPath, '{ up_to, trader }');
      checkKeys(doc, itemPath, ['up_to', 'trader']);
      return {
        ...(doc.up_to === undefined ? {} : { upToCents: readCents(doc.up_to, at(itemPath, 'up_to'), 'positive') }),
        trader: readFraction(required(doc.trader, at(itemPath, 'trader'), 'a share'), at(itemPath, 'trader')),
      };
    },
    { minLength: 1 },
  );
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

/** A share or probability: a decimal string in [0, 1] with at most 4 places, kept as written (normalized). */
function readFraction(value: unknown, path: string): string {
  const parsed = readDecimal(value, path, { maxPlaces: 4, sign: 'non_negative', example: '0.5' });
  if (parsed.greaterThan(1)) fail(path, 'a decimal string between "0" and "1"', value);
  return parsed.toFixed();
}
