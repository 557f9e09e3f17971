// A simulation's steps are plain data (docs/api.md#the-simulation): JSON that a failure file keeps and `--replay`
// runs again. A step names what it acts on by position, not by id ("the client's firm's third account"), and the
// run resolves the position against what exists when the step runs, so a step still means something after the
// shrinker has dropped the steps before it.
import type { FaultStatus, FaultTarget } from '../api/sandbox/fault-windows.js';
import type { Channel } from '../api/streams/stream-events.js';
import type { OrderType, TimeInForce } from '../core/orders/order-types.js';

/** Which of an account's lists a read step reads. */
export const READ_KINDS = [
  'orders',
  'order',
  'order_states',
  'fills',
  'trades',
  'trade_lots',
  'positions',
  'account_positions',
  'daily_positions',
  'stats',
  'balances',
  'balance',
  'adjustments',
  'risk_state',
  'accounts',
  'offerings',
  'admin_query',
] as const;
export type ReadKind = (typeof READ_KINDS)[number];

export type AccountOperation = 'lockout' | 'unlock' | 'flatten' | 'cancel_all' | 'replace' | 'reanchor';

/** How a request is malformed: no key, an unknown key, two credentials, a firm key naming a firm. */
export type BadAuth = 'none' | 'unknown_key' | 'both_headers' | 'firm_header';

export type Call =
  | {
      op: 'place';
      account: number;
      instrument: number;
      side: 'buy' | 'sell';
      type: OrderType;
      quantity: number;
      /** Ticks from the instrument's base price, for a limit (and a stop limit's limit). */
      ticks?: number;
      stopTicks?: number;
      tif: TimeInForce;
      key?: string;
      /** The body as client `borrow` would send it (its account): a retry of another client's key and body. */
      borrow?: number;
    }
  | { op: 'modify'; order: number; quantity?: number; ticks?: number }
  | { op: 'cancel'; order: number }
  | { op: 'oco_link'; orders: number[] }
  | { op: 'oco_companion'; group: number; order: number }
  | { op: 'provision'; email: number; plan: number; count: number; key?: string }
  | { op: 'account'; what: AccountOperation; account: number; flatten?: boolean }
  | { op: 'adjust'; account: number; cents: number }
  | { op: 'daily_loss_trigger'; account: number; cents: number }
  | { op: 'max_loss_limit'; account: number; cents: number | null }
  | { op: 'offering'; family: string; enabled: boolean }
  | { op: 'read'; what: ReadKind; ref: number }
  | { op: 'login'; email: number; fingerprint?: string }
  | { op: 'refresh' }
  | { op: 'logout' }
  | { op: 'prints'; instrument: number; ticks: number[] }
  | { op: 'advance'; by?: string; aheadMs?: number; toNext?: 'session_close' | 'session_roll' }
  | { op: 'reset' }
  | { op: 'fault'; target: FaultTarget; status: FaultStatus; durationMs: number; pathPrefix?: string }
  | { op: 'clear_faults' }
  | { op: 'clock' }
  | { op: 'session_export' }
  | { op: 'garbage'; route: number; body: string; contentType: string }
  | { op: 'bad_auth'; how: BadAuth; route: number };

/**
 * One request of one client. A trader sends its `token`-th newest session token (0: the newest; an older one was
 * revoked by a refresh, or outlived a reset). An admin names the firm of index `firm` in X-Firm-ID, or none (null).
 */
export interface ClientCall {
  client: number;
  call: Call;
  token?: number;
  firm?: number | null;
}

export type Step =
  /** One request, answered before the next step (after `first`, a login that gives it a live session, if any). */
  | ({ do: 'call'; first?: ClientCall } & ClientCall)
  /** Requests sent at once: their answers may come in any order (a retry racing its original, say). */
  | { do: 'together'; calls: ClientCall[] }
  /**
   * A request the client abandons after `afterTurns` turns of the event loop, or (`afterTurns: "acted"`) as soon as
   * it has acted and its answer waits for the commit: through inject's abort signal, or (`via: "http"`) a real
   * loopback connection that the client cuts. Then, maybe, its retry.
   */
  | ({ do: 'abort'; via: 'inject' | 'http'; afterTurns: number | 'acted'; retry: boolean } & ClientCall)
  /**
   * A request over a real connection whose body comes in two halves, with `meanwhile` (a reset, a logout, a clock
   * move) answered between them: after the gateway admitted the request, before its handler ran. `first` (a login,
   * so that the request has a live session) is answered before it all.
   */
  | ({ do: 'slow'; first?: ClientCall; meanwhile: ClientCall } & ClientCall)
  /**
   * `count` wrong passwords at once from one address of their own, to an app of the sandbox whose failed-
   * authentication limit is small: no more than its burst may be judged (docs/api.md#rate-limits).
   */
  | { do: 'storm'; count: number }
  /** `count` reads of one client at once: past a small rate limit, some are 429. */
  | { do: 'burst'; client: number; count: number }
  /**
   * A WebSocket subscriber: a trader's account channels, or another client's firm stream. With `again`, the socket
   * then subscribes a second time (those channels, from the first acknowledgement's sequence): each event must still
   * come once (docs/api.md#subscribing).
   */
  | { do: 'subscribe'; client: number; account: number; channels: Channel[]; again?: Channel[] }
  /**
   * The process dies `afterTurns` turns after `inFlight` were sent, or (`afterTurns: "event"`) the moment its
   * stream log next sends an event out: its writer thread is terminated without a close, its sockets cut, and a
   * new sandbox opens the file. With `storeFailure`, the process first lives on without its writer (a failed disk)
   * and must answer 503 store_unavailable, then restarts.
   */
  | { do: 'crash'; inFlight: ClientCall[]; afterTurns: number | 'event'; storeFailure: boolean }
  /** Realtime clock only: `ms` of wall time pass (a virtual wall: the run stays deterministic). */
  | { do: 'wall'; ms: number };

/** The instruments the simulation trades: a base price and a tick, so a step's ticks make a price. */
export const SIM_INSTRUMENTS: ReadonlyArray<{ symbol: string; baseTicks: number; tick: string }> = [
  { symbol: 'ESM6', baseTicks: 20_000, tick: '0.25' },
  { symbol: 'NQM6', baseTicks: 72_000, tick: '0.25' },
  { symbol: 'CLN6', baseTicks: 7_000, tick: '0.01' },
  { symbol: 'GCM6', baseTicks: 20_000, tick: '0.1' },
];

/** The price `ticks` from an instrument's base, as the API takes it. */
export function priceOf(instrument: number, ticks: number): string {
  const { baseTicks, tick } = SIM_INSTRUMENTS[instrument % SIM_INSTRUMENTS.length]!;
  const decimals = tick.split('.')[1]?.length ?? 0;
  return ((baseTicks + ticks) * Number(tick)).toFixed(decimals);
}

export function symbolOf(instrument: number): string {
  return SIM_INSTRUMENTS[instrument % SIM_INSTRUMENTS.length]!.symbol;
}

/** Cents as the API's decimal string: -2550 -> "-25.50". */
export function moneyOf(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
