// Random kernel commands for the model-based order lifecycle test and the kernel determinism test: fast-check
// arbitraries for the commands (three instruments of two product families, model-instruments.ts; prices within ±20
// ticks of each instrument's base so orders actually fill, firm operations among them) and for a run's setup.
import fc from 'fast-check';
import type { FillModel } from '../../src/core/orders/fill-model.js';
import type { OrderType, Side, TimeInForce } from '../../src/core/orders/order-types.js';
import { INSTRUMENTS } from './model-instruments.js';

/** Prices stay within this many ticks of each instrument's base. */
export const BAND_TICKS = 20;

/** Mostly true: a modify, link or companion shaped to be accepted (fields the order has, orders that can join),
 * sometimes not. */
const fitting = fc.integer({ min: 0, max: 4 }).map((x) => x !== 0);

/**
 * Which order a command targets: an index into the client's orders so far, or into the risk engine's when
 * `risk` and it sent some (among the working ones when `working`), or an unknown id.
 */
export interface Pick {
  n: number;
  working: boolean;
  risk: boolean;
  unknown: boolean;
}

/** A price drawn as ticks from the instrument's base, sometimes off its tick grid. */
export interface PriceDraw {
  offset: number;
  offGrid: boolean;
}

/** Firm operations on one account (docs/risk-rules.md#lockout-and-unlock, #flatten, #cancel-all): the account
 * commands, and a lockout with flatten. */
export type FirmOperation = 'lockout' | 'lockout_flatten' | 'unlock' | 'flatten' | 'cancel_all_orders';

export type Command =
  | {
      kind: 'place';
      account: number;
      instrument: number;
      side: Side;
      type: OrderType;
      tif: TimeInForce;
      quantity: number;
      limitPrice: PriceDraw;
      stopPrice: PriceDraw;
      malformed: boolean;
    }
  | {
      kind: 'modify';
      pick: Pick;
      quantity: number | undefined;
      limitPrice: PriceDraw | undefined;
      stopPrice: PriceDraw | undefined;
      fitting: boolean;
    }
  | { kind: 'cancel'; pick: Pick }
  | { kind: 'link'; picks: Pick[]; fitting: boolean }
  | { kind: 'companion'; group: number; unknownGroup: boolean; pick: Pick; fitting: boolean }
  | { kind: 'print'; instrument: number; offset: number; size: number | undefined }
  | { kind: 'advance'; ms: number }
  | {
      kind: 'fill';
      account: number;
      instrument: number;
      side: Side;
      quantity: number;
      offset: number;
      agoMs: number | undefined;
    }
  | { kind: 'firm'; account: number; op: FirmOperation };

const side = fc.constantFrom<Side>('buy', 'sell');
const instrument = fc.nat(INSTRUMENTS.length - 1);
const offset = fc.integer({ min: -BAND_TICKS, max: BAND_TICKS });
/** Mostly on the grid; x.05-style prices between ticks are REJECTED invalid_price on a new order, a rejected modify. */
const price: fc.Arbitrary<PriceDraw> = fc.record({
  offset,
  offGrid: fc.integer({ min: 0, max: 19 }).map((x) => x === 0),
});
const pick: fc.Arbitrary<Pick> = fc.record({
  n: fc.nat(1000),
  working: fc.boolean(),
  risk: fc.integer({ min: 0, max: 3 }).map((x) => x === 0),
  unknown: fc.integer({ min: 0, max: 24 }).map((x) => x === 0),
});

const place = fc.record({
  kind: fc.constant('place' as const),
  account: fc.nat(5),
  instrument,
  side,
  type: fc.constantFrom<OrderType>('market', 'limit', 'stop', 'stop_limit'),
  tif: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<TimeInForce>('day', 'gtc') },
    { weight: 1, arbitrary: fc.constantFrom<TimeInForce>('ioc', 'fok') },
  ),
  quantity: fc.integer({ min: 1, max: 5 }),
  limitPrice: price,
  stopPrice: price,
  malformed: fc.integer({ min: 0, max: 29 }).map((x) => x === 0),
});

const modify = fc.record({
  kind: fc.constant('modify' as const),
  pick,
  quantity: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  limitPrice: fc.option(price, { nil: undefined }),
  stopPrice: fc.option(price, { nil: undefined, freq: 3 }),
  fitting,
});

const cancel = fc.record({ kind: fc.constant('cancel' as const), pick });
const link = fc.record({
  kind: fc.constant('link' as const),
  picks: fc.array(pick, { minLength: 2, maxLength: 3 }),
  fitting,
});
const companion = fc.record({
  kind: fc.constant('companion' as const),
  group: fc.nat(1000),
  unknownGroup: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
  pick,
  fitting,
});
const print = fc.record({
  kind: fc.constant('print' as const),
  instrument,
  offset,
  size: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined, freq: 3 }),
});
const fill = fc.record({
  kind: fc.constant('fill' as const),
  account: fc.nat(5),
  instrument,
  side,
  quantity: fc.integer({ min: 1, max: 5 }),
  offset,
  /** How long ago it happened; negative now and then: stamped after the clock (400 fill_in_future). */
  agoMs: fc.option(fc.integer({ min: -100, max: 1000 }), { nil: undefined }),
});
const firm = fc.record({
  kind: fc.constant('firm' as const),
  account: fc.nat(5),
  op: fc.constantFrom<FirmOperation>(
    'lockout',
    'lockout',
    'lockout_flatten',
    'unlock',
    'unlock',
    'flatten',
    'cancel_all_orders',
  ),
});

export function commandArb(maxAdvanceMs = 500): fc.Arbitrary<Command> {
  const advance = fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: maxAdvanceMs }) });
  return fc.oneof(
    { weight: 6, arbitrary: place },
    { weight: 2, arbitrary: modify },
    { weight: 2, arbitrary: cancel },
    { weight: 1, arbitrary: link },
    { weight: 1, arbitrary: companion },
    { weight: 9, arbitrary: print },
    { weight: 3, arbitrary: advance },
    { weight: 1, arbitrary: fill },
    { weight: 2, arbitrary: firm },
  );
}

export interface RunSetup {
  fillModel: FillModel;
  /** Commission per contract of the second account (the first pays none). */
  commissionCents: number;
}

export const setupArb: fc.Arbitrary<RunSetup> = fc.record({
  fillModel: fc.record({
    latencyMs: fc.integer({ min: 0, max: 300 }),
    cancelLatencyMs: fc.integer({ min: 0, max: 300 }),
    modifyLatencyMs: fc.integer({ min: 0, max: 300 }),
    slippageTicks: fc.integer({ min: 0, max: 2 }),
    limitFill: fc.constantFrom<'touch' | 'through'>('touch', 'through'),
  }),
  commissionCents: fc.integer({ min: 0, max: 500 }),
});
