// The sandbox's event streams (docs/api.md#streams): /v1/ws for a trader's session (a JWT: a firm key is refused
// with 403 before the upgrade), by channel for one of the trader's accounts; /v1/firm-ws for a firm key (or an admin
// naming the firm), every account of the firm. Both take `{op: "subscribe", …, since_sequence?}` messages.
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { Type } from 'typebox';
import { echoed } from '../../core/validation/echo.js';
import { ApiError } from '../gateway/api-error.js';
import { readScopeOf, type Caller, type RoutePolicy } from '../gateway/caller.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { GATEWAY_ERRORS } from '../schemas/common.js';
import { SESSION_END_REASONS, sessionEnd } from '../gateway/session-open.js';
import { SESSION_ENDED_CLOSE } from './session-sockets.js';
import { CHANNELS, type Channel } from './stream-events.js';
import { StreamFanout } from './stream-fanout.js';
import { MAX_ACCOUNTS_PER_SOCKET, StreamSocket } from './stream-socket.js';

/** Unsent bytes a socket may hold before it is closed as a slow consumer. */
export const DEFAULT_BUFFER_LIMIT_BYTES = 1024 * 1024;

export interface StreamRouteDeps {
  sandbox: Sandbox;
  bufferLimitBytes?: number;
}

const FIRM_STREAM = { scope: 'accounts:read', needsFirm: true } as const;

const TicketShape = Type.Object(
  {
    ticket: Type.String({ description: 'pass it once as ?ticket= on /v1/firm-ws' }),
    expires_in: Type.Integer({ description: 'seconds of simulated time' }),
  },
  { additionalProperties: false },
);

export async function streamRoutes(app: FastifyInstance, deps: StreamRouteDeps): Promise<void> {
  const { sandbox } = deps;
  ticketRoute(app, sandbox);
  const limit = deps.bufferLimitBytes ?? DEFAULT_BUFFER_LIMIT_BYTES;
  const fanout = new StreamFanout(sandbox.streams.events$);
  const streamRoute = (url: string, policy: RoutePolicy, subscribe: typeof traderSubscribe) =>
    app.route({
      method: 'GET',
      url,
      config: { policy },
      schema: { hide: true },
      handler: upgradeRequired,
      wsHandler: (socket, request) => {
        const { caller } = request;
        // The upgrade was answered after the gateway's checks: a session that ended meanwhile closes the socket now,
        // since the reset, logout or expiry that ended it no longer sees it (gateway/session-open.ts).
        const ended = sessionEnd(caller, sandbox);
        if (ended) return socket.close(SESSION_ENDED_CLOSE, SESSION_END_REASONS[ended]);
        if (caller.kind === 'user') sandbox.sessionSockets.add(caller.tokenId, caller.expiresAtMs, socket);
        const stream = new StreamSocket(socket, request.raw.socket, sandbox.streams, fanout, limit);
        onMessages(socket, stream, (message) => subscribe(message, request.caller, sandbox, stream));
      },
    });
  streamRoute('/v1/ws', { users: true, firmKeyForbidden: true, sessionOnly: true }, traderSubscribe);
  streamRoute('/v1/firm-ws', { ...FIRM_STREAM, streamTicket: true }, firmSubscribe);
}

/** A browser's one-time ticket for the firm stream (stream-tickets.ts). */
function ticketRoute(app: FastifyInstance, sandbox: Sandbox): void {
  app.post(
    '/v1/firm-ws/tickets',
    {
      config: { policy: FIRM_STREAM },
      schema: {
        tags: ['streams'],
        operationId: 'createFirmStreamTicket',
        summary: 'A one-time ticket that opens /v1/firm-ws?ticket=… (for browsers, which cannot send the key header)',
        response: { 201: TicketShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return sandbox.streamTickets.issue(request.caller, sandbox.kernel.nowMs);
    },
  );
}

/** A plain GET of a stream, admitted by the gateway: 426 in the envelope. */
async function upgradeRequired(): Promise<never> {
  throw new ApiError(426, 'upgrade_required', 'this is a WebSocket stream: connect with Upgrade: websocket');
}

type Message = Record<string, unknown>;

function onMessages(socket: WebSocket, stream: StreamSocket, handle: (message: Message) => void): void {
  socket.on('message', (raw) => {
    let message: unknown;
    try {
      message = JSON.parse(String(raw));
    } catch {
      return stream.error('invalid_message', 'a message is one JSON object, e.g. {"op":"subscribe",…}');
    }
    if (typeof message !== 'object' || message === null || (message as Message).op !== 'subscribe')
      return stream.error('invalid_message', 'expected {"op":"subscribe",…}');
    handle(message as Message);
  });
}

function traderSubscribe(message: Message, caller: Caller, sandbox: Sandbox, stream: StreamSocket): void {
  const { channels, account_id: accountId } = message;
  if (
    !Array.isArray(channels) ||
    channels.length === 0 ||
    !channels.every((c) => (CHANNELS as readonly unknown[]).includes(c))
  )
    return stream.error('invalid_message', `channels: expected a non-empty list of ${CHANNELS.join(', ')}`);
  if (typeof accountId !== 'string' || accountId === '')
    return stream.error('invalid_message', 'account_id: expected the id of one of your accounts');
  if (!sandbox.kernel.read.visibleAccount(readScopeOf(caller), accountId))
    return stream.error('account_not_found', `no account ${echoed(accountId)} of yours`);
  const since = sinceOf(message, stream);
  if (since === null) return;
  const ack = { channels, account_id: accountId };
  // Only the channels the socket does not follow yet: one it follows already has had its backlog and goes on.
  const added = stream.unfollowed({ accountId, channels: channels as Channel[] });
  if (added === 'limit') return limitReached(stream);
  if (added === undefined) return stream.acknowledge(ack);
  const wanted = new Set(added);
  const subscribed = stream.subscribe(
    ack,
    {
      key: `ws ${accountId} ${[...wanted].sort().join(',')}`,
      accountId,
      wanted: (event) => event.account_id === accountId && event.channel !== undefined && wanted.has(event.channel),
    },
    since,
    { accountId, channels: added },
  );
  if (!subscribed) expired(stream, since);
}

function firmSubscribe(message: Message, caller: Caller, sandbox: Sandbox, stream: StreamSocket): void {
  const since = sinceOf(message, stream);
  if (since === null) return;
  if (stream.unfollowed(FIRM_TOPIC) === undefined) return stream.acknowledge({});
  const scope = readScopeOf(caller);
  const subscribed = stream.subscribe(
    {},
    {
      key: `firm-ws ${scope.firmId ?? '(every firm)'}`,
      wanted: (event) =>
        event.firm &&
        (event.account_id === undefined
          ? event.firm_id === scope.firmId
          : sandbox.kernel.read.visibleAccount(scope, event.account_id)),
    },
    since,
    FIRM_TOPIC,
  );
  if (!subscribed) expired(stream, since);
}

/** The firm stream as a topic: every event of the firm, no channels. */
const FIRM_TOPIC = { channels: ['firm'] };

function limitReached(stream: StreamSocket): void {
  stream.error(
    'subscription_limit',
    `a socket follows at most ${MAX_ACCOUNTS_PER_SOCKET} accounts; open another socket for more`,
  );
}

/** since_sequence when given, undefined when not, null (after answering the error) when invalid. */
function sinceOf(message: Message, stream: StreamSocket): number | undefined | null {
  const since = message.since_sequence;
  if (since === undefined) return undefined;
  if (typeof since === 'number' && Number.isSafeInteger(since) && since >= 0) return since;
  stream.error('invalid_message', 'since_sequence: expected a whole number >= 0, the last sequence you received');
  return null;
}

function expired(stream: StreamSocket, since: number | undefined): void {
  stream.error(
    'sequence_expired',
    `events after sequence ${since ?? 0} are no longer kept (the sandbox was reset, or keeps only the latest); subscribe without since_sequence`,
  );
}
