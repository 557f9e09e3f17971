// Validation of the trading steps: tick, fill, order, modify, cancel, oco. Their keys, types and ranges were
// checked against their schemas (step-schemas.ts); here, what depends on the catalog and on earlier steps. Every
// instrument must be a symbol the catalog knows (a typo is the file's mistake, found up front). Order prices are
// checked as decimals only: the tick grid is the venue's check at run time (an order off the grid ends REJECTED),
// while tick and fill prices must be on the grid.
import { FieldError, at, fail, type Fields } from '../core/validation/input-fields.js';
import { chicagoIso } from '../core/calendar/dates.js';
import { listNames, onTickGrid, readSymbol, readTimeMs } from './scenario-fields.js';
import type {
  CancelStep,
  FillStep,
  HttpStatus,
  ModifyStep,
  OcoStep,
  OrderStep,
  OrderType,
  Side,
  TickStep,
  TimeInForce,
} from './scenario-types.js';
import { readAccount, readPlacedRef, type StepInput } from './step-context.js';

function base(s: StepInput): { index: number; timeMs: number } {
  return { index: s.index, timeMs: s.ctx.nowMs };
}

function withStatus(s: StepInput): { expectStatus?: HttpStatus } {
  return s.expectStatus === undefined ? {} : { expectStatus: s.expectStatus };
}

export function parseTick(raw: unknown, s: StepInput): TickStep {
  const p = s.path;
  const doc = raw as { instrument: string; price: string; size?: number };
  const instrument = readSymbol(doc.instrument, at(p, 'instrument'));
  return {
    ...base(s),
    kind: 'tick',
    instrument,
    price: onTickGrid(doc.price, at(p, 'price'), instrument),
    ...(doc.size === undefined ? {} : { size: doc.size }),
  };
}

export function parseFill(raw: unknown, s: StepInput): FillStep {
  const p = s.path;
  const doc = raw as { account: string; instrument: string; side: Side; quantity: number; price: string; at?: unknown };
  const instrument = readSymbol(doc.instrument, at(p, 'instrument'));
  const fill: FillStep = {
    ...base(s),
    kind: 'fill',
    account: readAccount(doc.account, at(p, 'account'), s.ctx),
    instrument,
    side: doc.side,
    quantity: doc.quantity,
    price: onTickGrid(doc.price, at(p, 'price'), instrument),
  };
  if (doc.at === undefined) return fill;
  const atMs = readTimeMs(doc.at, at(p, 'at'));
  if (atMs > s.ctx.nowMs)
    fail(at(p, 'at'), `a time no later than the simulated clock at this step (${chicagoIso(s.ctx.nowMs)} CT)`, doc.at);
  return { ...fill, atMs };
}

export function parseOrder(raw: unknown, s: StepInput): OrderStep {
  const p = s.path;
  const doc = raw as Fields & { ref: string; account: string; instrument: string; side: Side; quantity: number };
  const ref = doc.ref;
  const earlier = s.ctx.placedRefs.get(ref);
  if (earlier !== undefined)
    fail(at(p, 'ref'), `a ref no earlier order step uses (steps[${earlier}] places ${JSON.stringify(ref)})`, ref);
  const account = readAccount(doc.account, at(p, 'account'), s.ctx);
  const instrument = readSymbol(doc.instrument, at(p, 'instrument'));
  const { side, quantity } = doc;
  const orderType = doc.type as OrderType;
  const limitPrice = orderPrice(doc, p, 'limit_price', orderType, ['limit', 'stop_limit']);
  const stopPrice = orderPrice(doc, p, 'stop_price', orderType, ['stop', 'stop_limit']);
  const tif = (doc.tif as TimeInForce | undefined) ?? 'day';
  s.ctx.placedRefs.set(ref, s.index);
  return {
    ...base(s),
    kind: 'order',
    ref,
    account,
    instrument,
    side,
    quantity,
    orderType,
    ...(limitPrice === undefined ? {} : { limitPrice }),
    ...(stopPrice === undefined ? {} : { stopPrice }),
    tif,
    ...withStatus(s),
  };
}

/** limit_price / stop_price: required by the types in `takers`, refused by the others. */
function orderPrice(
  doc: Fields,
  p: string,
  key: 'limit_price' | 'stop_price',
  type: OrderType,
  takers: readonly OrderType[],
): string | undefined {
  const value = doc[key];
  const takes = takers.includes(type);
  if (takes && value === undefined) fail(at(p, key), `a decimal string (a ${type} order needs ${key})`, value);
  if (!takes && value !== undefined) {
    fail(at(p, key), `no ${key} on a ${type} order (only ${takers.join(' and ')} orders take one)`, value);
  }
  return value as string | undefined;
}

export function parseModify(raw: unknown, s: StepInput): ModifyStep {
  const p = s.path;
  const doc = raw as { ref: string; quantity?: number; limit_price?: string; stop_price?: string };
  const ref = readPlacedRef(doc.ref, at(p, 'ref'), s.ctx);
  if (doc.quantity === undefined && doc.limit_price === undefined && doc.stop_price === undefined) {
    throw new FieldError(p, 'expected at least one change: quantity, limit_price or stop_price');
  }
  return {
    ...base(s),
    kind: 'modify',
    ref,
    ...(doc.quantity === undefined ? {} : { quantity: doc.quantity }),
    ...(doc.limit_price === undefined ? {} : { limitPrice: doc.limit_price }),
    ...(doc.stop_price === undefined ? {} : { stopPrice: doc.stop_price }),
    ...withStatus(s),
  };
}

export function parseCancel(raw: unknown, s: StepInput): CancelStep {
  const p = s.path;
  const doc = raw as { ref: string };
  return {
    ...base(s),
    kind: 'cancel',
    ref: readPlacedRef(doc.ref, at(p, 'ref'), s.ctx),
    ...withStatus(s),
  };
}

/**
 * `oco: { group, orders }`: a group name new to the file links ≥ 2 orders; the name of a group an earlier
 * step linked adds one companion order to it.
 */
export function parseOco(raw: unknown, s: StepInput): OcoStep {
  const p = s.path;
  const { group, orders: value } = raw as { group: string; orders: string[] };
  const listPath = at(p, 'orders');
  const refs = value.map((item: unknown, i: number) => readPlacedRef(item, at(listPath, i), s.ctx));
  const repeated = refs.findIndex((r, i) => refs.indexOf(r) !== i);
  if (repeated >= 0) fail(at(listPath, repeated), 'a ref not already listed', refs[repeated]);
  const existing = s.ctx.ocoGroups.get(group);
  if (existing === undefined) {
    if (refs.length < 2) fail(listPath, `at least 2 order refs to link a new group ${JSON.stringify(group)}`, value);
    s.ctx.ocoGroups.set(group, new Set(refs));
    return { ...base(s), kind: 'oco', group, action: 'link', refs, ...withStatus(s) };
  }
  if (refs.length !== 1) {
    fail(
      listPath,
      `one order ref: group ${JSON.stringify(group)} exists (${listNames(existing)}), so this step adds a companion`,
      value,
    );
  }
  const [ref] = refs as [string];
  if (existing.has(ref)) fail(at(listPath, 0), `an order not already in group ${JSON.stringify(group)}`, ref);
  existing.add(ref);
  return { ...base(s), kind: 'oco', group, action: 'companion', refs, ...withStatus(s) };
}
