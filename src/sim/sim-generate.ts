// The steps of a seed (docs/api.md#the-simulation): drawn up front from the seed alone, never from the answers, so
// the same seed always makes the same steps and a failure file's steps run again exactly. The mix: mostly single
// requests of every kind of client, market prints and clock moves; now and then requests at once, an abandoned
// request, a burst past the rate limit, a subscriber, a fault window, a reset and a crash.
import { FAULT_TARGETS, type FaultStatus } from '../api/sandbox/fault-windows.js';
import { CHANNELS, type Channel } from '../api/streams/stream-events.js';
import { PRODUCT_FAMILIES } from '../core/instruments.js';
import type { ClientSpec } from './sim-clients.js';
import { GARBAGE_BODIES, GARBAGE_ROUTES, GUARDED_ROUTES } from './sim-garbage.js';
import type { SimRandom } from './sim-random.js';
import {
  READ_KINDS,
  SIM_INSTRUMENTS,
  type AccountOperation,
  type Call,
  type ClientCall,
  type Step,
} from './sim-steps.js';

/** `count` steps for `clients`, drawn from `random` (a `wall` step only with a realtime clock). */
export function generateSteps(
  random: SimRandom,
  count: number,
  clients: readonly ClientSpec[],
  realtime: boolean,
): Step[] {
  const generator = new StepGenerator(random, clients, realtime);
  return Array.from({ length: count }, () => generator.step());
}

class StepGenerator {
  /** Where each instrument trades now, in ticks from its base: prints and limits follow it, so orders fill. */
  private readonly midTicks = SIM_INSTRUMENTS.map(() => 0);
  /**
   * Idempotent placements so far: a later step retries one (any client: keys are per firm, so another firm's client
   * reusing it places anew), or reuses its key with another body.
   */
  private readonly keyed: Array<Extract<Call, { op: 'place' }>> = [];
  /** The client each key was first drawn for: a retry by another client may send that client's body. */
  private readonly keyClients = new Map<string, number>();
  private keys = 0;
  private readonly admin: number;

  constructor(
    private readonly random: SimRandom,
    private readonly clients: readonly ClientSpec[],
    private readonly realtime: boolean,
  ) {
    this.admin = Math.max(
      0,
      clients.findIndex((c) => c.kind === 'admin'),
    );
  }

  step(): Step {
    const r = this.random;
    const kind = r.weighted<Step['do'] | 'prints' | 'advance' | 'reset' | 'fault' | 'clear_faults' | 'borrow'>([
      [700, 'call'],
      [110, 'prints'],
      [50, 'advance'],
      [4, 'reset'],
      [14, 'fault'],
      [4, 'clear_faults'],
      [40, 'together'],
      [22, 'abort'],
      [12, 'slow'],
      [8, 'borrow'],
      [5, 'storm'],
      [8, 'burst'],
      [20, 'subscribe'],
      [12, 'crash'],
      [this.realtime ? 30 : 0, 'wall'],
    ]);
    switch (kind) {
      case 'call':
        return { do: 'call', ...this.clientCall(r.int(0, this.clients.length - 1)) };
      case 'prints':
      case 'advance':
      case 'reset':
      case 'fault':
      case 'clear_faults':
        return { do: 'call', client: this.admin, call: this.control(kind) };
      case 'together':
        return { do: 'together', calls: this.together() };
      case 'abort': {
        const client = r.int(0, this.clients.length - 1);
        const afterTurns = r.chance(0.5) ? ('acted' as const) : r.int(0, 5);
        const via = r.pick(['inject', 'http'] as const);
        return { do: 'abort', ...this.writeCall(client), via, afterTurns, retry: r.chance(0.6) };
      }
      case 'slow':
        return this.slow();
      case 'borrow':
        return this.borrow();
      case 'storm':
        return { do: 'storm', count: r.int(8, 40) };
      case 'burst':
        return { do: 'burst', client: r.int(0, this.clients.length - 1), count: r.int(20, 80) };
      case 'subscribe': {
        const channels = CHANNELS.filter(() => r.chance(0.6));
        const again = CHANNELS.filter(() => r.chance(0.6));
        return {
          do: 'subscribe',
          client: r.int(0, this.clients.length - 1),
          account: r.int(0, 9),
          channels: channels.length > 0 ? channels : [r.pick<Channel>(CHANNELS)],
          ...(r.chance(0.4) ? { again: again.length > 0 ? again : channels } : {}),
        };
      }
      case 'crash':
        return {
          do: 'crash',
          inFlight: Array.from(
            {
              length: r.weighted([
                [3, 0],
                [5, r.int(1, 4)],
              ]),
            },
            () => this.writeCall(r.int(0, this.clients.length - 1)),
          ),
          afterTurns: r.chance(0.5) ? 'event' : r.int(0, 6),
          storeFailure: r.chance(0.2),
        };
      case 'wall':
        return { do: 'wall', ms: r.pick([10, 250, 1000, 5000, 60_000]) };
    }
  }

  /** Sandbox control: prints around the market, clock moves, resets and fault windows. */
  private control(kind: 'prints' | 'advance' | 'reset' | 'fault' | 'clear_faults'): Call {
    const r = this.random;
    switch (kind) {
      case 'prints': {
        const instrument = this.instrument();
        const mid = this.walk(instrument);
        return { op: 'prints', instrument, ticks: Array.from({ length: r.int(1, 3) }, () => mid + r.int(-3, 3)) };
      }
      case 'advance':
        return r.weighted<Call>([
          [60, { op: 'advance', by: r.pick(['250ms', '1s', '15s', '1m', '5m', '30m', '2h']) }],
          [10, { op: 'advance', aheadMs: r.pick([-60_000, 0, 1, 500, 90_000, 3_600_000]) }],
          [4, { op: 'advance', toNext: 'session_close' }],
          [6, { op: 'advance', toNext: 'session_roll' }],
        ]);
      case 'reset':
        return { op: 'reset' };
      case 'clear_faults':
        return { op: 'clear_faults' };
      case 'fault':
        return {
          op: 'fault',
          target: r.pick(FAULT_TARGETS),
          status: r.pick<FaultStatus>([421, 429, 502, 503]),
          durationMs: r.pick([100, 1000, 15_000, 120_000]),
          ...(r.chance(0.4)
            ? { pathPrefix: r.pick(['/v1/orders', '/v1/balances', '/v1/firm-control', '/v1/ws']) }
            : {}),
        };
    }
  }

  private clientCall(client: number): ClientCall {
    const spec = this.clients[client]!;
    const call = this.callOf(spec);
    if (call.op === 'place' && call.key !== undefined && !this.keyClients.has(call.key))
      this.keyClients.set(call.key, client);
    return this.addressed(client, call);
  }

  /** A trader picks which of its tokens to send; an admin names a firm, or (rarely) none. */
  private addressed(client: number, call: Call): ClientCall {
    const r = this.random;
    const spec = this.clients[client]!;
    if (spec.kind === 'trader')
      return {
        client,
        call,
        token: r.weighted([
          [9, 0],
          [1, r.int(1, 3)],
        ]),
      };
    if (spec.kind === 'admin')
      return {
        client,
        call,
        firm: r.weighted<number | null>([
          [9, r.int(0, 1)],
          [1, null],
        ]),
      };
    return { client, call };
  }

  private callOf(spec: ClientSpec): Call {
    const r = this.random;
    switch (spec.kind) {
      case 'operator':
        return r.weighted<() => Call>([
          [30, () => this.place()],
          [6, () => this.modify()],
          [8, () => ({ op: 'cancel', order: r.int(0, 40) })],
          [3, () => ({ op: 'oco_link', orders: [r.int(0, 40), r.int(0, 40)] })],
          [2, () => ({ op: 'oco_companion', group: r.int(0, 9), order: r.int(0, 40) })],
          [6, () => this.provision()],
          [8, () => this.accountOperation()],
          [3, () => ({ op: 'adjust', account: r.int(0, 9), cents: r.int(-50_000, 50_000) })],
          [2, () => ({ op: 'daily_loss_trigger', account: r.int(0, 9), cents: r.int(4_800_000, 5_000_000) })],
          [2, () => this.maxLossLimit()],
          [1, () => ({ op: 'offering', family: r.pick(PRODUCT_FAMILIES), enabled: r.chance(0.7) })],
          [25, () => this.read()],
        ])();
      case 'viewer':
        return r.weighted<() => Call>([
          [70, () => this.read()],
          [10, () => this.place()],
          [10, () => this.accountOperation()],
          [5, () => this.provision()],
        ])();
      case 'admin':
        return r.weighted<() => Call>([
          [25, () => this.read()],
          [10, () => this.place()],
          [4, () => this.provision()],
          [4, () => this.accountOperation()],
          [5, () => ({ op: 'clock' })],
          [1, () => ({ op: 'session_export' })],
        ])();
      case 'trader':
        return r.weighted<() => Call>([
          [
            12,
            () => ({
              op: 'login',
              email: r.int(0, 7),
              ...(r.chance(0.3) ? { fingerprint: `device-${r.int(0, 2)}` } : {}),
            }),
          ],
          [4, () => ({ op: 'refresh' })],
          [3, () => ({ op: 'logout' })],
          [30, () => this.place()],
          [5, () => this.modify()],
          [8, () => ({ op: 'cancel', order: r.int(0, 40) })],
          [2, () => ({ op: 'oco_link', orders: [r.int(0, 40), r.int(0, 40)] })],
          [30, () => this.read()],
          [4, () => this.accountOperation()],
        ])();
      case 'rogue':
        return r.weighted<() => Call>([
          [15, () => this.place()],
          [10, () => ({ op: 'cancel', order: r.int(0, 40) })],
          [5, () => this.modify()],
          [20, () => this.read()],
          [10, () => this.accountOperation()],
          [3, () => ({ op: 'adjust', account: r.int(0, 9), cents: r.int(-5000, 5000) })],
          [25, () => this.garbage()],
          [
            20,
            () => ({
              op: 'bad_auth',
              how: r.pick(['none', 'unknown_key', 'both_headers', 'firm_header'] as const),
              route: r.int(0, GUARDED_ROUTES.length - 1),
            }),
          ],
          [2, () => this.control(r.pick(['prints', 'advance', 'reset', 'fault'] as const))],
        ])();
    }
  }

  /** A write of the kind a crash or an abort cuts short: mostly keyed placements, whose retry must be safe. */
  private writeCall(client: number): ClientCall {
    const r = this.random;
    const spec = this.clients[client]!;
    if (spec.kind === 'admin' && r.chance(0.3))
      return { client, call: this.control(r.pick(['advance', 'prints', 'fault', 'reset', 'prints'] as const)) };
    if (spec.kind === 'trader' && r.chance(0.25))
      return this.addressed(
        client,
        r.pick<Call>([{ op: 'login', email: r.int(0, 3) }, { op: 'logout' }, { op: 'refresh' }]),
      );
    const call = r.weighted<() => Call>([
      [6, () => this.place(0.9)],
      [1, () => this.accountOperation()],
      [1, () => ({ op: 'cancel', order: r.int(0, 40) })],
      [1, () => this.provision()],
    ])();
    return this.addressed(client, call);
  }

  /**
   * A trader's placement whose body comes after a reset, a logout of its token, a clock move past its session's
   * hour, or (to compare) a read of the clock: docs/api.md#what-a-reset-ends.
   */
  private slow(): Step {
    const r = this.random;
    const traders = this.clients.flatMap((c, i) => (c.kind === 'trader' ? [i] : []));
    if (traders.length === 0) return { do: 'call', ...this.clientCall(r.int(0, this.clients.length - 1)) };
    const client = r.pick(traders);
    const first: ClientCall = { client, call: { op: 'login', email: r.int(0, 2) } };
    const placing: ClientCall = { client, call: this.place(), token: 0 };
    const meanwhile = r.weighted<() => ClientCall>([
      [4, () => ({ client: this.admin, call: { op: 'reset' } })],
      [3, () => ({ client, call: { op: 'logout' }, token: 0 })],
      [2, () => ({ client: this.admin, call: { op: 'advance', by: '2h' } })],
      [1, () => ({ client: this.admin, call: { op: 'clock' } })],
    ])();
    return { do: 'slow', first, ...placing, meanwhile };
  }

  /**
   * A trader logs in and sends the Idempotency-Key and body of another client of its firm (an operator's, another
   * trader's): unless the account is its own, it must get a 404, never the other's order (docs/api.md#idempotency).
   */
  private borrow(): Step {
    const r = this.random;
    const traders = this.clients.flatMap((c, i) => (c.kind === 'trader' ? [i] : []));
    const client = traders.length > 0 ? r.pick(traders) : undefined;
    const firm = client === undefined ? undefined : this.clients[client]!.firm;
    const lent = this.keyed.filter((call) => {
      const lender = this.keyClients.get(call.key!);
      const spec = lender === undefined ? undefined : this.clients[lender];
      return lender !== client && spec !== undefined && spec.kind !== 'rogue' && spec.firm === firm;
    });
    if (client === undefined || lent.length === 0)
      return { do: 'call', ...this.clientCall(r.int(0, this.clients.length - 1)) };
    const call = r.pick(lent.slice(-8));
    return {
      do: 'call',
      first: { client, call: { op: 'login', email: r.int(0, 2) } },
      client,
      call: { ...call, borrow: this.keyClients.get(call.key!)! },
      token: 0,
    };
  }

  /** Requests sent at once: a retry racing its original, a reset racing a clock move, or any mix. */
  private together(): ClientCall[] {
    const r = this.random;
    const clients = this.clients.length;
    return r.weighted<() => ClientCall[]>([
      [
        3,
        () => {
          const first = this.clientCall(r.int(0, clients - 1));
          const retried: ClientCall = first.call.op === 'place' ? first : { ...first, call: this.place(1) };
          return [retried, retried, ...(r.chance(0.3) ? [retried] : [])];
        },
      ],
      [
        1,
        () => [
          { client: this.admin, call: this.control('advance') },
          { client: this.admin, call: { op: 'reset' } },
        ],
      ],
      [6, () => Array.from({ length: r.int(2, 5) }, () => this.clientCall(r.int(0, clients - 1)))],
      [1, () => this.sessionTwice()],
    ])();
  }

  /** A trader's newest token refreshed twice at once, or refreshed and logged out at once. */
  private sessionTwice(): ClientCall[] {
    const r = this.random;
    const traders = this.clients.flatMap((c, i) => (c.kind === 'trader' ? [i] : []));
    if (traders.length === 0) return [this.clientCall(0)];
    const client = r.pick(traders);
    const refresh: ClientCall = { client, call: { op: 'refresh' }, token: 0 };
    return [refresh, r.chance(0.5) ? refresh : { ...refresh, call: { op: 'logout' } }];
  }

  private place(keyChance = 0.5): Extract<Call, { op: 'place' }> {
    const r = this.random;
    if (this.keyed.length > 0 && r.chance(0.12)) {
      const again = r.pick(this.keyed.slice(-8));
      // Now and then with the body of the client that first used the key: another trader of the firm sending it
      // must get the 404 a fresh request of theirs would, not the first trader's order (docs/api.md#idempotency).
      const lender = r.chance(0.5) ? this.keyClients.get(again.key!) : undefined;
      if (lender !== undefined) return { ...again, borrow: lender };
      return r.chance(0.7) ? again : { ...again, quantity: again.quantity + 1 };
    }
    const instrument = this.instrument();
    const mid = this.midTicks[instrument]!;
    const type = r.weighted([
      [35, 'market'],
      [45, 'limit'],
      [10, 'stop'],
      [10, 'stop_limit'],
    ] as const);
    const call: Extract<Call, { op: 'place' }> = {
      op: 'place',
      account: r.int(0, 9),
      instrument,
      side: r.pick(['buy', 'sell'] as const),
      type,
      quantity: r.weighted([
        [20, r.int(1, 3)],
        [1, r.int(4, 40)],
      ]),
      ...(type === 'limit' || type === 'stop_limit' ? { ticks: mid + r.int(-8, 8) } : {}),
      ...(type === 'stop' || type === 'stop_limit' ? { stopTicks: mid + r.int(-8, 8) } : {}),
      tif: r.weighted([
        [50, 'day'],
        [35, 'gtc'],
        [10, 'ioc'],
        [5, 'fok'],
      ] as const),
    };
    if (!r.chance(keyChance)) return call;
    const keyed = { ...call, key: `key-${++this.keys}` };
    this.keyed.push(keyed);
    return keyed;
  }

  private modify(): Call {
    const r = this.random;
    return {
      op: 'modify',
      order: r.int(0, 40),
      ...(r.chance(0.5) ? { quantity: r.int(1, 4) } : {}),
      ...(r.chance(0.6) ? { ticks: this.midTicks[0]! + r.int(-8, 8) } : {}),
    };
  }

  private provision(): Call {
    const r = this.random;
    return {
      op: 'provision',
      email: r.int(0, 7),
      plan: r.int(0, 3),
      count: r.weighted([
        [8, 1],
        [2, r.int(2, 3)],
      ]),
      ...(r.chance(0.3) ? { key: `purchase-${r.int(0, 5)}` } : {}),
    };
  }

  private accountOperation(): Call {
    const r = this.random;
    const what = r.weighted<AccountOperation>([
      [5, 'lockout'],
      [5, 'unlock'],
      [3, 'flatten'],
      [3, 'cancel_all'],
      [1, 'replace'],
      [2, 'reanchor'],
    ]);
    return {
      op: 'account',
      what,
      account: r.int(0, 9),
      ...(what === 'lockout' && r.chance(0.4) ? { flatten: true } : {}),
    };
  }

  private maxLossLimit(): Call {
    const r = this.random;
    return { op: 'max_loss_limit', account: r.int(0, 9), cents: r.chance(0.2) ? null : r.int(4_500_000, 5_200_000) };
  }

  private read(): Call {
    return { op: 'read', what: this.random.pick(READ_KINDS), ref: this.random.int(0, 40) };
  }

  private garbage(): Call {
    const r = this.random;
    return {
      op: 'garbage',
      route: r.int(0, GARBAGE_ROUTES.length - 1),
      body: r.pick(GARBAGE_BODIES),
      contentType: r.weighted([
        [8, 'application/json'],
        [1, 'text/plain'],
        [1, 'application/xml'],
      ]),
    };
  }

  /** ES most of the time, so that orders meet prints. */
  private instrument(): number {
    return this.random.weighted([
      [6, 0],
      [2, 1],
      [1, 2],
      [1, 3],
    ]);
  }

  /** The market moves a little at each print; it stays within reach of the orders' limits. */
  private walk(instrument: number): number {
    const next = this.midTicks[instrument]! + this.random.int(-4, 4);
    this.midTicks[instrument] = Math.max(-60, Math.min(60, next));
    return this.midTicks[instrument]!;
  }
}
