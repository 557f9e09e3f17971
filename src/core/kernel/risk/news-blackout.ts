// What a news blackout refuses and what it fails (docs/risk-rules.md#news-blackouts). An order or a fill is an entry
// when it opens or adds to its instrument's position, or reverses it (more than the position, on the other side); an
// exit only reduces it. Entries in a blackout's roots are what the rule is about: refused (no_entry, flatten), or a
// failure of the evaluation when one fills (fail). Exits are always allowed.
import { blackoutAt, eventWords, windowEndMs, windowStartMs, type NewsRule } from '../../accounts/news-rule.js';
import { chicagoIso } from '../../calendar/dates.js';
import type { InstrumentSpec } from '../../instruments.js';
import type { OrderError, Side } from '../../orders/order-types.js';

/** Whether `quantity` on `side` against a net position opens, adds to or reverses it. */
export function isEntry(side: Side, quantity: number, net: number): boolean {
  if (net === 0) return true;
  const sign = side === 'buy' ? 1 : -1;
  return sign * net > 0 || quantity > Math.abs(net);
}

/** Whether a fill took the net position further from flat, or through it (the fill opened, added or reversed). */
export function filledEntry(netBefore: number, netAfter: number): boolean {
  return Math.abs(netAfter) > Math.abs(netBefore) || netBefore * netAfter < 0;
}

/** The blackout words of a message: `from 07:28:00 to 07:32:00 CT around CPI at 2026-03-11T07:30:00.000-05:00`. */
export function blackoutWords(rule: NewsRule, event: Parameters<typeof eventWords>[0]): string {
  const clock = (ms: number) => chicagoIso(ms).slice(11, 19);
  return `from ${clock(windowStartMs(rule, event))} to ${clock(windowEndMs(rule, event))} CT around ${eventWords(event)}`;
}

/** The gate's refusal of an entry in a blackout of its root (no_entry and flatten), or undefined. */
export function newsRefusal(
  rule: NewsRule,
  spec: InstrumentSpec,
  side: Side,
  quantity: number,
  net: number,
  nowMs: number,
): OrderError | undefined {
  if (rule.action === 'fail') return undefined;
  const event = blackoutAt(rule, nowMs, spec.root, spec.miniRoot);
  if (event === undefined || !isEntry(side, quantity, net)) return undefined;
  return {
    code: 'news_blackout',
    message: `orders that open or add to a position in ${spec.root} are refused in the news blackout ${blackoutWords(rule, event)}`,
  };
}

/** Why a fill that opened or added to a position in a blackout of its root fails the evaluation (fail), or undefined. */
export function newsViolation(
  rule: NewsRule,
  spec: InstrumentSpec,
  symbol: string,
  netBefore: number,
  netAfter: number,
  atMs: number,
): string | undefined {
  if (rule.action !== 'fail' || !filledEntry(netBefore, netAfter)) return undefined;
  const event = blackoutAt(rule, atMs, spec.root, spec.miniRoot);
  if (event === undefined) return undefined;
  return `a fill took ${symbol} from ${netBefore} to ${netAfter} in the news blackout ${blackoutWords(rule, event)}`;
}
