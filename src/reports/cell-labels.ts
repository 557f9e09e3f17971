// Plain labels for a back-test's cells (docs/backtesting.md#reading-reporthtml): "EOD trailing $2,000 · daily $1,000"
// from the cell's grid values, so a reader need not decode `risk_profile.max_drawdown_value=2000`. Fields without a
// phrase here fall back to `field=value`.
import { Dec } from '../core/money.js';
import { splitCellValues } from '../backtest/config/grid.js';

const MODE_WORDS: Record<string, string> = {
  static: 'static',
  realtime_balance: 'intraday trailing (balance)',
  realtime_equity: 'intraday trailing',
  eod_balance: 'EOD trailing',
};

const NEWS_ACTION_WORDS: Record<string, string> = {
  no_entry: 'no entries',
  flatten: 'flatten',
  fail: 'fails',
};

const MODE = 'risk_profile.max_drawdown_mode';
const ALLOWANCE = 'risk_profile.max_drawdown_value';

/** "$2,000", or "$1,234.50" when there are cents. */
export function plainDollars(value: unknown): string {
  const amount = new Dec(String(value));
  const places = amount.isInteger() ? 0 : 2;
  const [whole, fraction] = amount.abs().toFixed(places).split('.');
  return `${amount.isNegative() ? '-' : ''}$${Number(whole).toLocaleString('en-US')}${fraction ? `.${fraction}` : ''}`;
}

/** Phrases of single fields: a value, or null (the field removed). */
const PHRASES: Record<string, (value: unknown) => string> = {
  'risk_profile.max_drawdown_limit': (v) => (v === null ? 'no trailing cap' : `trailing stops at +${plainDollars(v)}`),
  'risk_profile.daily_loss_value': (v) => (v === null ? 'no daily limit' : `daily ${plainDollars(v)}`),
  'passing_criteria.profit_target': (v) => `target ${plainDollars(v)}`,
  'passing_criteria.min_trading_days': (v) => (v === null ? 'no minimum days' : `min ${String(v)} days`),
  'passing_criteria.consistency_pct': (v) => (v === null ? 'no consistency rule' : `consistency ${String(v)}%`),
  'passing_criteria.time_limit_days': (v) =>
    v === null ? 'no time limit' : `${String(v)} trade date${v === 1 ? '' : 's'} to pass`,
  'risk_profile.daily_loss_action': (v) => (v === 'fail' ? 'daily loss fails' : 'daily loss locks'),
  'position_limits.max_contracts': (v) => (v === null ? 'no contract limit' : `max ${String(v)} contracts`),
  'risk_profile.scaling': (v) => (v === null ? 'no scaling plan' : `scaling ${scalingWords(v)}`),
  'position_limits.max_contracts_per_root': (v) => (v === null ? 'no per-root limits' : `per root ${rootWords(v)}`),
  'position_limits.micro_ratio': (v) => (v === null ? 'micros count whole' : `${String(v)} micros a mini`),
  'risk_profile.flat_by': (v) => (v === null ? 'no flat-by time' : `flat by ${String(v)} CT`),
  'risk_profile.flat_by_action': (v) => (v === 'fail' ? 'holding at the flat time fails' : 'flat time flattens'),
  'risk_profile.hold_over_weekend': (v) => (v === false ? 'flat for weekends' : 'weekends held'),
  'risk_profile.news': (v) => (v === null ? 'no news rule' : 'news blackouts'),
  'risk_profile.news.action': (v) => `news ${NEWS_ACTION_WORDS[String(v)] ?? String(v)}`,
  'risk_profile.news.before_minutes': (v) => `news from ${String(v)} min before`,
  'risk_profile.news.after_minutes': (v) => `news to ${String(v)} min after`,
  starting_balance: (v) => `${plainDollars(v)} account`,
  commission_per_contract: (v) => `commission ${plainDollars(v)}`,
};

/** Tiers as written (`[{ from_profit: "0", max_contracts: 3 }, { from_profit: "1500", max_contracts: 5 }]`):
 * "3, 5 from $1,500". */
function scalingWords(tiers: unknown): string {
  return (tiers as { from_profit: string; max_contracts: number }[])
    .map((t, i) =>
      i === 0 && new Dec(t.from_profit).isZero()
        ? String(t.max_contracts)
        : `${t.max_contracts} from ${plainDollars(t.from_profit)}`,
    )
    .join(', ');
}

/** `{ ES: 5, NQ: 2 }`: "ES 5, NQ 2". */
function rootWords(limits: unknown): string {
  return Object.entries(limits as Record<string, number>)
    .map(([root, limit]) => `${root} ${limit}`)
    .join(', ');
}

/** A dotted field of a plan as written, or undefined. */
function fieldOf(plan: Record<string, unknown> | undefined, key: string): unknown {
  let node: unknown = plan;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return node;
}

/** The phrases of one plan's values (the evaluation's or the funded one's), in axis order. */
function planPhrases(values: Record<string, unknown>, plan: Record<string, unknown> | undefined): string[] {
  const phrases: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (key === MODE || key === ALLOWANCE) {
      // The mode and the allowance read as one phrase; the one the grid does not vary comes from the plan.
      if (phrases.includes(maxLossPhrase(values, plan))) continue;
      phrases.push(maxLossPhrase(values, plan));
    } else phrases.push(PHRASES[key]?.(value) ?? `${key}=${value === null ? 'none' : String(value)}`);
  }
  return phrases;
}

function maxLossPhrase(values: Record<string, unknown>, plan: Record<string, unknown> | undefined): string {
  const mode = String(values[MODE] ?? fieldOf(plan, MODE) ?? '');
  const allowance = values[ALLOWANCE] ?? fieldOf(plan, ALLOWANCE);
  const words = MODE_WORDS[mode] ?? (mode || 'max loss');
  return allowance === undefined ? words : `${words} ${plainDollars(allowance)}`;
}

/**
 * "EOD trailing $2,000 · daily $1,000 · funded daily $1,500": the cell's values in plain words, the evaluation plan's
 * first, then the funded plan's; "base plan" when the grid is empty.
 */
export function plainCellLabel(
  values: Record<string, unknown>,
  basePlan: Record<string, unknown>,
  fundedPlan?: Record<string, unknown>,
): string {
  if (Object.keys(values).length === 0) return 'base plan';
  const { evaluation, funded } = splitCellValues(values);
  const fundedPhrases = planPhrases(funded, fundedPlan).map((p) => `funded ${p}`);
  return [...planPhrases(evaluation, basePlan), ...fundedPhrases].join(' · ');
}
