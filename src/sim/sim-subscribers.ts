// WebSocket subscribers (docs/api.md#streams) on the system's loopback listener: a trader following channels of
// one of its accounts, or a firm key (or an admin naming the firm) following the firm. Each keeps the events it
// received after the sequence its subscription was acknowledged at; the check compares them with the events the
// sandbox's log kept after that number, picked as the docs say each stream carries them: in order, no gap, no
// duplicate, nothing of another account or firm. After a crash, what a subscriber saw must still be there, at the
// same numbers (the restart numbers the journal's events again), and it resumes with since_sequence. A socket that
// subscribes a second time (docs/api.md#subscribing) must still get each event once: a sequence received twice on
// one socket is a failure of its own.
import WebSocket from 'ws';
import type { StreamEvent } from '../api/streams/stream-events.js';
import type { Channel } from '../api/streams/stream-events.js';
import { SESSION_ENDED_CLOSE } from '../api/streams/session-sockets.js';
import type { ClientSpec, SimCast } from './sim-clients.js';
import { expectThat, InvariantFailure } from './sim-failure.js';
import type { SimModel, TokenRecord } from './sim-model.js';
import type { OwnershipIndex } from './sim-ownership.js';
import type { Step } from './sim-steps.js';
import type { SimSystem } from './sim-system.js';

/** A subscriber's events as it got them: the frame's fields in the frame's order. */
type Frame = string;

/** At most this many subscribers at once: a new one closes the oldest. */
const MAX_SUBSCRIBERS = 6;
/** How long a subscriber may take to receive what the log sent (the fanout writes every 5 ms at most). */
const DELIVERY_WAIT_MS = 3000;

/** The events each stream carries (docs/api.md#streams). */
const CHANNEL_TYPES: Record<Channel, readonly string[]> = {
  orders: ['orders.state', 'fills.created'],
  positions: ['positions.created', 'trades.closed'],
  balances: ['balance.updated'],
};
const FIRM_TYPES: ReadonlySet<string> = new Set([
  'positions.created',
  'balance.updated',
  'account.created',
  'account.locked',
  'account.unlocked',
  'account.flattened',
  'fills.created',
  'devices.flagged',
  'fingerprints.flagged',
  'ip_logs.flagged',
]);

interface Subscription {
  no: number;
  path: '/v1/ws' | '/v1/firm-ws';
  headers: Record<string, string>;
  message: Record<string, unknown>;
  firm: number;
  /** The trader's account and channels; undefined for the firm stream. */
  account?: { id: string; channels: readonly Channel[] };
  token?: TokenRecord;
  /** Events after this sequence are the ones compared. */
  from: number;
  received: Frame[];
  /** The sequences received: one that comes twice is a duplicate. */
  seen: Set<number>;
  lastSequence: number;
  ws: WebSocket | undefined;
  /** What went wrong on the socket after the acknowledgement (an error message where an event belongs). */
  problem: string | undefined;
  /** The reason the sandbox gave when it closed the socket because its session ended (code 4001). */
  sessionEnded: string | undefined;
  /** How many `subscribed` acknowledgements the socket got. */
  acks: number;
}

/** How near its expiry a session is taken as possibly expired (the clock of a realtime sandbox keeps moving). */
const EXPIRY_MARGIN_MS = 1000;

export interface SubscribeContext {
  clients: readonly ClientSpec[];
  cast: SimCast;
  model: SimModel;
  system: SimSystem;
}

export class Subscribers {
  private list: Subscription[] = [];
  private count = 0;
  /** Where the log starts: the sequence at the last reset (the log keeps nothing before it). */
  private logFrom = 0;
  /** What the log had sent when the process died. */
  private sentAtCrash: Frame[] | undefined;

  constructor(
    private readonly ownership: OwnershipIndex,
    private readonly cast: SimCast,
  ) {}

  get size(): number {
    return this.list.length;
  }

  async subscribe(step: Extract<Step, { do: 'subscribe' }>, ctx: SubscribeContext): Promise<void> {
    const spec = ctx.clients[step.client]!;
    const subscription = this.subscriptionOf(step, spec, ctx);
    if (!subscription) return;
    if (this.list.length >= MAX_SUBSCRIBERS) this.list.shift()!.ws?.terminate();
    const opened = await this.connect(subscription, ctx.system, undefined);
    if (opened === 'refused' || opened === 'error') return;
    this.list.push(subscription);
    if (step.again) await this.subscribeAgain(subscription, step.again, ctx.system);
  }

  /**
   * The same socket subscribes again, from its first acknowledgement's sequence: to more channels of the account,
   * the same ones, or the firm stream again. It then follows the union, each event once.
   */
  private async subscribeAgain(s: Subscription, again: readonly Channel[], system: SimSystem): Promise<void> {
    const acks = s.acks;
    if (s.account) {
      const channels = [...new Set([...s.account.channels, ...again])];
      s.ws?.send(
        JSON.stringify({ op: 'subscribe', channels: again, account_id: s.account.id, since_sequence: s.from }),
      );
      s.account = { ...s.account, channels };
      s.message = { ...s.message, channels };
    } else s.ws?.send(JSON.stringify({ op: 'subscribe', since_sequence: s.from }));
    await waitFor(() => s.acks > acks || s.problem !== undefined, DELIVERY_WAIT_MS);
    expectThat(
      s.acks > acks || s.problem !== undefined,
      'stream',
      () => `subscriber #${s.no}: no second acknowledgement`,
    );
    // The backlog of the channels it added comes after the acknowledgement; from then on, events come in order.
    const expected = this.expected(s, system).length;
    await waitFor(() => s.received.length >= expected || s.problem !== undefined, DELIVERY_WAIT_MS);
    s.received.sort((a, b) => sequenceOf(a) - sequenceOf(b));
  }

  /**
   * The events each subscriber received are the ones the log kept for its stream, all of them, in order. A socket
   * closed because its session ended got a beginning of them (what the sandbox had written before the end,
   * docs/api.md#streams) and is done; its session must really have ended.
   */
  async check(system: SimSystem): Promise<void> {
    for (const s of this.list) {
      expectThat(s.problem === undefined, 'stream', () => `subscriber #${s.no}: ${s.problem}`);
      const expected = this.expected(s, system);
      await waitFor(() => s.received.length >= expected.length || s.sessionEnded !== undefined, DELIVERY_WAIT_MS);
      if (s.sessionEnded === undefined) compare(s, expected, 'received');
      else {
        checkSessionEnded(s, system);
        compare(s, expected, 'received before its session ended');
      }
    }
    this.list = this.list.filter((s) => s.sessionEnded === undefined);
  }

  /** A reset empties the log: each subscriber compares from the reset on. */
  rebaseline(system: SimSystem): void {
    this.logFrom = system.sandbox.streams.sequence;
    for (const s of this.list) {
      s.from = s.lastSequence = system.sandbox.streams.sequence;
      s.received = [];
      s.seen.clear();
    }
  }

  /**
   * The process is about to die: what its log has sent so far, any client may have seen, so a restart must keep
   * it, at the same numbers (docs/api.md#streams), whether or not a subscriber here received it yet.
   */
  rememberSent(system: SimSystem): void {
    this.sentAtCrash = system.sandbox.streams.after(this.logFrom)?.map(frameOf);
  }

  /** The process died: every socket with it. */
  cutAll(): void {
    for (const s of this.list) {
      s.ws?.terminate();
      s.ws = undefined;
    }
  }

  /**
   * After a restart: what each subscriber saw is still in the log at the same numbers, and it resumes from the last
   * event it saw (a trader whose session did not survive stops). After a reset that took effect, it starts over.
   */
  async afterRestart(system: SimSystem, resetHappened: boolean): Promise<void> {
    const resumed: Subscription[] = [];
    if (resetHappened) this.rebaseline(system);
    else this.checkSentKept(system);
    for (const s of this.list) {
      if (!resetHappened) compare(s, this.expected(s, system), 'saw before the crash');
      if (s.token && s.token.state !== 'live') continue;
      const opened = await this.connect(s, system, resetHappened ? undefined : s.lastSequence);
      if (opened === 'subscribed') resumed.push(s);
    }
    this.list = resumed;
  }

  close(): void {
    this.cutAll();
    this.list = [];
  }

  private checkSentKept(system: SimSystem): void {
    const sent = this.sentAtCrash ?? [];
    const kept = system.sandbox.streams.after(this.logFrom)?.map(frameOf);
    if (!kept) return; // trimmed: the log keeps the latest events only
    sent.forEach((frame, i) =>
      expectThat(
        kept[i] === frame,
        'stream',
        () =>
          `the log had sent event ${frame.slice(0, 240)} before the crash; after the restart it has ` +
          `${kept[i]?.slice(0, 240) ?? 'nothing'} there`,
      ),
    );
  }

  private expected(s: Subscription, system: SimSystem): Frame[] {
    const kept = system.sandbox.streams.after(s.from);
    if (!kept)
      throw new InvariantFailure('stream', `subscriber #${s.no}: the log no longer keeps the events after ${s.from}`);
    return kept.filter((event) => this.carries(s, event)).map(frameOf);
  }

  /** Whether the subscriber's stream carries the event (docs/api.md#streams). */
  private carries(s: Subscription, event: StreamEvent): boolean {
    if (s.account)
      return event.account_id === s.account.id && s.account.channels.some((c) => CHANNEL_TYPES[c].includes(event.type));
    if (!FIRM_TYPES.has(event.type)) return false;
    if (event.account_id === undefined) return this.ownership.ownerOf(event.firm_id ?? '')?.firm === s.firm;
    return this.ownership.ownerOf(event.account_id)?.firm === s.firm;
  }

  private subscriptionOf(
    step: Extract<Step, { do: 'subscribe' }>,
    spec: ClientSpec,
    ctx: SubscribeContext,
  ): Subscription | undefined {
    const base = {
      no: ++this.count,
      from: 0,
      received: [],
      seen: new Set<number>(),
      acks: 0,
      lastSequence: 0,
      ws: undefined,
      problem: undefined,
      sessionEnded: undefined,
    };
    if (spec.kind === 'trader') {
      const token = ctx.model.token(step.client, 0);
      if (!token || token.firm < 0) return undefined;
      const read = ctx.system.sandbox.kernel.read;
      const firmId = read.firm(this.cast.firms[token.firm]!.slug)?.firm_id;
      const list = firmId ? read.accounts({ firmId, userId: token.userId }, {}, { limit: 100 }) : undefined;
      const accounts = list?.ok ? list.body.items : [];
      if (accounts.length === 0) return undefined;
      const id = accounts[step.account % accounts.length]!.account_id;
      return {
        ...base,
        path: '/v1/ws',
        headers: { authorization: `Bearer ${token.token}` },
        message: { op: 'subscribe', channels: step.channels, account_id: id },
        firm: token.firm,
        account: { id, channels: step.channels },
        token,
      };
    }
    const firm = spec.kind === 'admin' ? step.account % this.cast.firms.length : spec.firm;
    const simFirm = this.cast.firms[firm]!;
    const headers =
      spec.kind === 'admin'
        ? { 'x-service-api-key': ctx.cast.adminKey, 'x-firm-id': simFirm.slug }
        : { 'x-service-api-key': spec.kind === 'viewer' ? simFirm.viewerKey : simFirm.operatorKey };
    return { ...base, path: '/v1/firm-ws', headers, message: { op: 'subscribe' }, firm };
  }

  /** Opens the socket and subscribes (resuming after `since`); a refused upgrade is checked against the session. */
  private connect(
    s: Subscription,
    system: SimSystem,
    since: number | undefined,
  ): Promise<'subscribed' | 'refused' | 'error'> {
    return new Promise((settle, fail) => {
      const ws = new WebSocket(`ws://${system.address}${s.path}`, { headers: s.headers });
      let acknowledged = false;
      const timer = setTimeout(
        () => fail(new InvariantFailure('stream', `subscriber #${s.no}: no acknowledgement`)),
        DELIVERY_WAIT_MS,
      );
      ws.on('unexpected-response', (request, response) => {
        clearTimeout(timer);
        request.destroy();
        const status = response.statusCode ?? 0;
        const live = s.token?.state === 'live' && s.token.expiresAtMs > system.sandbox.kernel.nowMs + EXPIRY_MARGIN_MS;
        if (live && status === 401)
          return fail(new InvariantFailure('session', `a live session's stream ${s.path} was refused 401`));
        settle('refused');
      });
      ws.on('error', () => undefined); // a refused upgrade, or a socket cut by a crash
      ws.on('close', (code, reason) => {
        if (code === SESSION_ENDED_CLOSE && s.ws === ws) s.sessionEnded = String(reason);
      });
      ws.on('open', () =>
        ws.send(JSON.stringify({ ...s.message, ...(since === undefined ? {} : { since_sequence: since }) })),
      );
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; sequence?: number; code?: string };
        if (message.type === 'subscribed') s.acks++;
        if (!acknowledged) {
          clearTimeout(timer);
          acknowledged = true;
          if (message.type !== 'subscribed') {
            ws.terminate();
            return settle('error');
          }
          if (since === undefined) s.from = s.lastSequence = message.sequence!;
          s.ws = ws;
          return settle('subscribed');
        }
        if (message.type === 'error') s.problem ??= `an error where events belong: ${String(data)}`;
        else if (message.type !== 'subscribed') this.receive(s, message.sequence!, String(data));
      });
    });
  }

  private receive(s: Subscription, sequence: number, frame: Frame): void {
    if (sequence <= s.from) return;
    if (s.seen.has(sequence)) s.problem ??= `received event ${sequence} twice on one socket: ${frame.slice(0, 200)}`;
    s.seen.add(sequence);
    s.lastSequence = Math.max(s.lastSequence, sequence);
    s.received.push(frame);
  }
}

function sequenceOf(frame: Frame): number {
  return (JSON.parse(frame) as { sequence: number }).sequence;
}

function frameOf(event: StreamEvent): Frame {
  const { type, sequence, occurred_at, data } = event;
  return JSON.stringify({ type, sequence, occurred_at, data });
}

/** A stream closed for its session's end: the session ended (logged out, expired, refreshed away or reset). */
function checkSessionEnded(s: Subscription, system: SimSystem): void {
  const token = s.token;
  const live = token?.state === 'live' && token.expiresAtMs > system.sandbox.kernel.nowMs + EXPIRY_MARGIN_MS;
  expectThat(
    !live,
    'session',
    () =>
      `subscriber #${s.no}: the stream of a live session (expiring at ${token!.expiresAtMs}) was closed: ${s.sessionEnded}`,
  );
}

/** The subscriber's events are the expected ones, or (after a crash or its session's end) a beginning of them. */
function compare(
  s: Subscription,
  expected: readonly Frame[],
  what: 'received' | 'saw before the crash' | 'received before its session ended',
): void {
  const prefixOnly = what !== 'received';
  for (let i = 0; i < s.received.length; i++)
    expectThat(
      s.received[i] === expected[i],
      'stream',
      () =>
        `subscriber #${s.no} (${s.path}${s.account ? ` ${s.account.id} ${s.account.channels.join(',')}` : ` firm #${s.firm}`}, after ${s.from}) ` +
        `${what} as its event ${i + 1}: ${s.received[i]!.slice(0, 240)}; the log has ${expected[i]?.slice(0, 240) ?? 'nothing more'}`,
    );
  if (!prefixOnly)
    expectThat(
      s.received.length === expected.length,
      'stream',
      () =>
        `subscriber #${s.no} (${s.path}, after ${s.from}) received ${s.received.length} events; the log has ` +
        `${expected.length}, the first missing: ${expected[s.received.length]?.slice(0, 240)}`,
    );
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!condition() && performance.now() < until) await new Promise((wait) => setTimeout(wait, 2));
}
