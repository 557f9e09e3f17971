// Validation of the trading steps: tick, fill, order, modify, cancel, oco. Every instrument must be a symbol
// the catalog knows (a typo is the file's mistake, found up front). Order prices are checked as decimals
// only: the tick grid is the venue's check at run time (an order off the grid ends REJECTED), while tick and
// fill prices must be on the grid.
import { FieldError, at, fail, readEnum, type Fields } from '../core/accounts/input-fields.js';
import { chicagoIso } from '../core/calendar/dates.js';
import {
  listNames,
  readGridPrice,
  readName,
  readPrice,
  readQuantity,
  readSymbol,
  readTimeMs,
} from './scenario-fields.js';
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
import { need, readAccount, readPlacedRef, stepBody, type StepInput } from './step-context.js';

const SIDES: readonly Side[] = ['buy', 'sell'];
const ORDER_TYPES: readonly OrderType[] = ['market', 'limit', 'stop', 'stop_limit'];
const TIFS: readonly TimeInForce[] = ['day', 'gtc', 'ioc', 'fok'];

function base(s: StepInput): { index: number; timeMs: number } {
  return { index: s.index, timeMs: s.ctx.nowMs };
}

function withStatus(s: StepInput): { expectStatus?: HttpStatus } {
  return s.expectStatus === undefined ? {} : { expectStatus: s.expectStatus };
}

export function parseTick(raw: unknown, s: StepInput): TickStep {
  const p = s.path;
  const doc = stepBody(raw, p, ['instrument', 'price', 'size']);
  const instrument = readSymbol(need(doc, 'instrument', p, 'a GLOBEX symbol'), at(p, 'instrument'));
  return {
    ...base(s),
    kind: 'tick',
    instrument,
    price: readGridPrice(need(doc, 'price', p, 'a decimal string'), at(p, 'price'), instrument),
    ...(doc.size === undefined ? {} : { size: readQuantity(doc.size, at(p, 'size')) }),
  };
}

export function parseFill(raw: unknown, s: StepInput): FillStep {
  const p = s.path;
  const doc = stepBody(raw, p, ['account', 'instrument', 'side', 'quantity', 'price', 'at']);
  const instrument = readSymbol(need(doc, 'instrument', p, 'a GLOBEX symbol'), at(p, 'instrument'));
  const fill: FillStep = {
    ...base(s),
    kind: 'fill',
    account: readAccount(need(doc, 'account', p, 'an account alias'), at(p, 'account'), s.ctx),
    instrument,
    side: readEnum(need(doc, 'side', p, 'buy or sell'), at(p, 'side'), SIDES),
    quantity: readQuantity(need(doc, 'quantity', p, 'an integer ≥ 1'), at(p, 'quantity')),
    price: readGridPrice(need(doc, 'price', p, 'a decimal string'), at(p, 'price'), instrument),
  };
  if (doc.at === undefined) return fill;
  const atMs = readTimeMs(doc.at, at(p, 'at'));
  if (atMs > s.ctx.nowMs)
    fail(at(p, 'at'), `a time no later than the simulated clock at this step (${chicagoIso(s.ctx.nowMs)} CT)`, doc.at);
  return { ...fill, atMs };
}

export function parseOrder(raw: unknown, s: StepInput): OrderStep {
  const p = s.path;
  const doc = stepBody(raw, p, [
    'ref',
    'account',
    'instrument',
    'side',
    'quantity',
    'type',
    'limit_price',
    'stop_price',
    'tif',
  ]);
  const ref = readName(need(doc, 'ref', p, 'an order ref'), at(p, 'ref'), 'an order ref');
  const earlier = s.ctx.placedRefs.get(ref);
  if (earlier !== undefined)
    fail(at(p, 'ref'), `a ref no earlier order step uses (steps[${earlier}] places ${JSON.stringify(ref)})`, ref);
  const account = readAccount(need(doc, 'account', p, 'an account alias'), at(p, 'account'), s.ctx);
  const instrument = readSymbol(need(doc, 'instrument', p, 'a GLOBEX symbol'), at(p, 'instrument'));
  const side = readEnum(need(doc, 'side', p, 'buy or sell'), at(p, 'side'), SIDES);
  const quantity = readQuantity(need(doc, 'quantity', p, 'an integer ≥ 1'), at(p, 'quantity'));
  const orderType = readEnum(need(doc, 'type', p, `one of ${ORDER_TYPES.join(', ')}`), at(p, 'type'), ORDER_TYPES);
  const limitPrice = orderPrice(doc, p, 'limit_price', orderType, ['limit', 'stop_limit']);
  const stopPrice = orderPrice(doc, p, 'stop_price', orderType, ['stop', 'stop_limit']);
  const tif = doc.tif === undefined ? 'day' : readEnum(doc.tif, at(p, 'tif'), TIFS);
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
  return value === undefined ? undefined : readPrice(value, at(p, key));
}

export function parseModify(raw: unknown, s: StepInput): ModifyStep {
  const p = s.path;
  const doc = stepBody(raw, p, ['ref', 'quantity', 'limit_price', 'stop_price']);
  const ref = readPlacedRef(need(doc, 'ref', p, 'an order ref'), at(p, 'ref'), s.ctx);
  if (doc.quantity === undefined && doc.limit_price === undefined && doc.stop_price === undefined) {
    throw new FieldError(p, 'expected at least one change: quantity, limit_price or stop_price');
  }
  return {
    ...base(s),
    kind: 'modify',
    ref,
    ...(doc.quantity === undefined ? {} : { quantity: readQuantity(doc.quantity, at(p, 'quantity')) }),
    ...(doc.limit_price === undefined ? {} : { limitPrice: readPrice(doc.limit_price, at(p, 'limit_price')) }),
    ...(doc.stop_price === undefined ? {} : { stopPrice: readPrice(doc.stop_price, at(p, 'stop_price')) }),
    ...withStatus(s),
  };
}

export function parseCancel(raw: unknown, s: StepInput): CancelStep {
  const p = s.path;
  const doc = stepBody(raw, p, ['ref']);
  return {
    ...base(s),
    kind: 'cancel',
    ref: readPlacedRef(need(doc, 'ref', p, 'an order ref'), at(p, 'ref'), s.ctx),
    ...withStatus(s),
  };
}

/**
 * `oco: { group, orders }`: a group name new to the file links ≥ 2 orders; the name of a group an earlier
 * step linked adds one companion order to it.
 */
export function parseOco(raw: unknown, s: StepInput): OcoStep {
  const p = s.path;
  const doc = stepBody(raw, p, ['group', 'orders']);
  const group = readName(need(doc, 'group', p, 'an OCO group name'), at(p, 'group'), 'an OCO group name');
  const listPath = at(p, 'orders');
  const value = need(doc, 'orders', p, 'a list of order refs');
  if (!Array.isArray(value)) fail(listPath, 'a list of order refs', value);
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
