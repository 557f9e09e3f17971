// The order gate's contract limits (docs/risk-rules.md#position-limits): what the account would hold if this order and
// every working order on its side of its instrument filled, |net + same-side working + this order| plus |net| of the
// other instruments, bounded by max_contracts and the scaling plan's tier (the smaller), then each per-root limit on
// the same projection restricted to the root. With micro_ratio r the counts are in micros, exactly: a mini counts r,
// a micro 1, and the limit r × L (docs/risk-rules.md#micros); no fraction is ever rounded.
import { accountLimitNow, type AccountLimit } from '../../accounts/position-limits.js';
import type { PlanTemplate } from '../../accounts/plans.js';
import { instrumentByRoot, parseSymbol } from '../../instruments.js';
import { Dec, formatCents } from '../../money.js';
import type { OrderError, Side } from '../../orders/order-types.js';

export interface ContractGateInput {
  readonly plan: PlanTemplate;
  /** Trading profit at the last session roll: picks the scaling tier. */
  readonly rollProfitCents: number;
  readonly symbol: string;
  readonly side: Side;
  /** The order's unfilled quantity (a modify's new quantity less what has filled). */
  readonly remaining: number;
  /** Unfilled quantity of the account's other working orders on this side of this instrument. */
  readonly sameSideWorking: number;
  /** The account's positions (flat ones may be among them). */
  readonly positions: readonly { readonly symbol: string; readonly netQuantity: number }[];
}

/** The first limit the order would break, as its rejection, or undefined. */
export function contractLimitRefusal(input: ContractGateInput): OrderError | undefined {
  const { positionLimits: limits, riskProfile } = input.plan;
  const account = accountLimitNow(limits, riskProfile.scaling, input.rollProfitCents);
  const perRoot = limits.maxContractsPerRoot;
  if (account === undefined && perRoot === undefined) return undefined;
  const net = input.positions.find((p) => p.symbol === input.symbol)?.netQuantity ?? 0;
  const own = Math.abs(net + (input.side === 'buy' ? 1 : -1) * (input.sameSideWorking + input.remaining));
  const terms = `net ${net}, same-side working ${input.sameSideWorking}, this order ${input.remaining}`;
  const counted = { ...input, own, terms };
  const refusal = account && accountRefusal(counted, account);
  if (refusal || perRoot === undefined) return refusal;
  for (const root of rootLimitsOf(input.symbol, limits.microRatio)) {
    const limit = perRoot[root];
    const refused = limit === undefined ? undefined : rootRefusal(counted, root, limit);
    if (refused) return refused;
  }
  return undefined;
}

interface Counted extends ContractGateInput {
  /** |net + same-side working + this order| in the order's instrument, its own contracts. */
  readonly own: number;
  readonly terms: string;
}

/** max_contracts or the scaling tier: every instrument counts, micros at 1/micro_ratio. */
function accountRefusal(c: Counted, limit: AccountLimit): OrderError | undefined {
  const ratio = c.plan.positionLimits.microRatio;
  const weight = (symbol: string) => (ratio === undefined || isMicro(symbol) ? 1 : ratio);
  const scale = ratio ?? 1;
  let elsewhere = 0;
  for (const p of c.positions) if (p.symbol !== c.symbol) elsewhere += weight(p.symbol) * Math.abs(p.netQuantity);
  const units = weight(c.symbol) * c.own + elsewhere;
  if (units <= scale * limit.limit) return undefined;
  const others = elsewhere > 0 ? `, other instruments ${inMinis(elsewhere, scale)}` : '';
  const projection = `${inMinis(units, scale)} contracts${microWords(ratio)} (${instrumentTerms(c, ratio)}${others})`;
  if (limit.by === 'max_contracts')
    return {
      code: 'position_limit_exceeded',
      message: `${projection} would exceed the account's limit of ${limit.limit}`,
    };
  const from = dollars(limit.tier.fromProfitCents);
  const tier = limit.below ? `below the first tier, from ${from}, which holds there` : `tier from ${from}`;
  return {
    code: 'scaling_limit_exceeded',
    message: `${projection} would exceed the scaling plan's ${limit.limit} at ${dollars(c.rollProfitCents)} profit (${tier})`,
  };
}

/**
 * One root's limit: its own contracts, all months, and with micro_ratio, when the root is a mini, its micros at
 * 1/micro_ratio. A micro root's own limit counts that root's contracts only, whole.
 */
function rootRefusal(c: Counted, root: string, limit: number): OrderError | undefined {
  const ratio = c.plan.positionLimits.microRatio;
  const scale = ratio !== undefined && !isMicroRoot(root) ? ratio : 1;
  // The root's own contracts count `scale` each; its micros (only with micro_ratio) count 1.
  const weight = (symbol: string) => {
    const spec = parseSymbol(symbol).spec;
    if (spec.root === root) return scale;
    return ratio !== undefined && spec.miniRoot === root ? 1 : 0;
  };
  let elsewhere = 0;
  for (const p of c.positions) if (p.symbol !== c.symbol) elsewhere += weight(p.symbol) * Math.abs(p.netQuantity);
  const units = weight(c.symbol) * c.own + elsewhere;
  if (units <= scale * limit) return undefined;
  const others = elsewhere > 0 ? `, other ${root} contracts ${inMinis(elsewhere, scale)}` : '';
  const words = scale === 1 ? '' : microWords(ratio);
  return {
    code: 'root_limit_exceeded',
    message: `${inMinis(units, scale)} ${root} contracts${words} (${instrumentTerms(c, scale === 1 ? undefined : ratio)}${others}) would exceed the account's limit of ${limit} for ${root}`,
  };
}

/** The roots whose per-root limits bound an order: its own, then, with micro_ratio, a micro's mini. */
function rootLimitsOf(symbol: string, ratio: number | undefined): string[] {
  const spec = parseSymbol(symbol).spec;
  return ratio !== undefined && spec.miniRoot !== undefined ? [spec.root, spec.miniRoot] : [spec.root];
}

function isMicro(symbol: string): boolean {
  return parseSymbol(symbol).spec.miniRoot !== undefined;
}

function isMicroRoot(root: string): boolean {
  return instrumentByRoot(root).miniRoot !== undefined;
}

/** The order's instrument's terms; with micro_ratio, named, and a micro said to be one. */
function instrumentTerms(c: Counted, ratio: number | undefined): string {
  if (ratio === undefined) return c.terms;
  return `${c.symbol}${isMicro(c.symbol) ? ' micros' : ''}: ${c.terms}`;
}

function microWords(ratio: number | undefined): string {
  return ratio === undefined ? '' : ` in minis, ${ratio} micros counting as 1`;
}

/** Micros as minis, exactly: a terminating decimal ("5.3"), else a fraction ("16/3"). */
export function inMinis(units: number, scale: number): string {
  if (units % scale === 0) return String(units / scale);
  const quotient = new Dec(units).dividedBy(scale);
  return quotient.times(scale).eq(units) ? quotient.toFixed() : `${units}/${scale}`;
}

/** "$1,500.00", "-$300.00". */
function dollars(cents: number): string {
  const [whole, fraction] = formatCents(Math.abs(cents)).split('.');
  return `${cents < 0 ? '-' : ''}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}
