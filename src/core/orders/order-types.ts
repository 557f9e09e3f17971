// The shapes of an order as the venue and kernel hold it. Prices are integer ticks of the instrument.
import type { InstrumentSpec } from '../instruments.js';
import type { OrderStatus } from './order.machine.js';
import type { StatusLog } from './status-log.js';
import type { VenuePhase } from './venue-phase.js';

export type { Side } from '../positions/execution.js';
import type { Side } from '../positions/execution.js';
export type OrderType = 'market' | 'limit' | 'stop' | 'stop_limit';
export type TimeInForce = 'day' | 'gtc' | 'ioc' | 'fok';

export const ORDER_TYPES: readonly OrderType[] = ['market', 'limit', 'stop', 'stop_limit'];
export const TIMES_IN_FORCE: readonly TimeInForce[] = ['day', 'gtc', 'ioc', 'fok'];

/** Error payload of a REJECTED order. */
export interface OrderError {
  code: string;
  message: string;
}

/** Who sent the order: a client, or the risk engine flattening an account (which passes the account gate). */
export type OrderOrigin = 'client' | 'risk';

export interface Order {
  readonly id: string;
  /** Creation order among all orders: lists page by (created_at, seq). */
  readonly seq: number;
  /** The client's own reference, when it sent one. */
  readonly clientOrderId: string | undefined;
  readonly origin: OrderOrigin;
  readonly accountId: string;
  readonly symbol: string;
  /** Undefined when the symbol is unknown: the order is REJECTED on arrival. */
  readonly spec: InstrumentSpec | undefined;
  readonly side: Side;
  readonly type: OrderType;
  readonly tif: TimeInForce;
  /** Prices as the client wrote them (kept for the record and for an off-grid rejection message). */
  limitPrice: string | undefined;
  stopPrice: string | undefined;
  limitTicks: number | undefined;
  stopTicks: number | undefined;
  readonly createdAtMs: number;
  /** Where the venue has it (venue-phase.ts: moved only by moveVenuePhase). */
  phase: VenuePhase;
  /** A stop or stop-limit whose stop has been hit: it now behaves as a market or limit order. */
  triggered: boolean;
  /** Priority among orders at one price: the venue sequence of its arrival (or last re-pricing). */
  arrivalSeq: number;
  /** True until the order has met its first print since arrival, modify or trigger (limit pricing, IOC/FOK). */
  awaitingFirstPrint: boolean;
  /** Sum of fill price ticks x quantity, for the average fill price. */
  filledNotionalTicks: number;
  cancelInFlight: boolean;
  ocoGroupId: string | undefined;
  /** Timer handle of the DAY expiry, when scheduled. */
  expirySeq: number | undefined;
  error: OrderError | undefined;
  /** The order machine's state and context (orders/order-lifecycle.ts runs the machine on them). */
  status: OrderStatus;
  quantity: number;
  filledQuantity: number;
  history: StatusLog;
}

export function remainingQuantity(order: Order): number {
  return order.quantity - order.filledQuantity;
}
