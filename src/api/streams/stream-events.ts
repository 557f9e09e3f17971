// Which kernel events the sandbox's streams carry, under which names and in which shape (docs/api.md#streams):
// a trader's /v1/ws by channel (orders, positions, balances) for one account at a time, a firm's /v1/firm-ws for
// every account of the firm.
import type { KernelEvent } from '../../core/kernel/events.js';
import { textFrame } from './text-frame.js';

export const CHANNELS = ['orders', 'positions', 'balances'] as const;
export type Channel = (typeof CHANNELS)[number];

/** One event as the streams send it, numbered in the order the kernel published it. */
export interface StreamEvent {
  readonly sequence: number;
  readonly type: string;
  readonly occurred_at: number;
  /** The account it concerns; firm-wide events (shared devices) have none and name their firm instead. */
  readonly account_id: string | undefined;
  readonly firm_id?: string;
  /** The trader channel that carries it, if any. */
  readonly channel: Channel | undefined;
  /** Whether the firm stream carries it. */
  readonly firm: boolean;
  readonly data: Record<string, unknown>;
}

interface Route {
  readonly type: string;
  readonly channel?: Channel;
  readonly firm?: boolean;
  readonly data?: (data: Record<string, unknown>) => Record<string, unknown>;
}

/** orders.state is the status record of the interface: {order_id, account_id, status, reason?, occurred_at}. */
function statusRecord(d: Record<string, unknown>): Record<string, unknown> {
  return {
    order_id: d.order_id,
    account_id: d.account_id,
    status: d.status,
    ...(d.reason === undefined || d.reason === null ? {} : { reason: d.reason }),
    occurred_at: d.occurred_at,
  };
}

const ROUTES: Partial<Record<KernelEvent['type'], Route>> = {
  'orders.state': { type: 'orders.state', channel: 'orders', data: statusRecord },
  'fills.created': { type: 'fills.created', channel: 'orders', firm: true },
  'positions.created': { type: 'positions.created', channel: 'positions', firm: true },
  'trades.closed': { type: 'trades.closed', channel: 'positions' },
  'balance.updated': { type: 'balance.updated', channel: 'balances', firm: true },
  'accounts.created': { type: 'account.created', firm: true },
  'accounts.locked': { type: 'account.locked', firm: true },
  'accounts.unlocked': { type: 'account.unlocked', firm: true },
  'accounts.flattened': { type: 'account.flattened', firm: true },
};

/** The stream event of a kernel event, or undefined when no stream carries it. */
export function streamEventOf(event: KernelEvent, sequence: number): StreamEvent | undefined {
  const route = ROUTES[event.type];
  const accountId = event.data.account_id;
  if (!route || typeof accountId !== 'string') return undefined;
  return {
    sequence,
    type: route.type,
    occurred_at: event.timeMs,
    account_id: accountId,
    channel: route.channel,
    firm: route.firm ?? false,
    data: route.data ? route.data(event.data) : event.data,
  };
}

const FRAMES = new WeakMap<StreamEvent, Buffer>();

/**
 * An event as a WebSocket text frame, ready to write to a socket (a server's frames are not masked): serialized
 * and framed once however many sockets send it.
 */
export function eventFrame(event: StreamEvent): Buffer {
  let frame = FRAMES.get(event);
  if (frame === undefined) {
    const { type, sequence, occurred_at, data } = event;
    frame = textFrame(Buffer.from(JSON.stringify({ type, sequence, occurred_at, data })));
    FRAMES.set(event, frame);
  }
  return frame;
}
