// The bodies of the requests the simulation's steps make (docs/api.md#the-simulation): placements around a market
// that walks, modifications, provisioning, account operations, reads, garbage and the admin's sandbox control. Kept
// apart from who sends them (sim-generate-clients.ts) because the bodies carry state of their own: where each
// instrument trades, so orders fill, and the idempotency keys drawn so far, so later steps can retry or borrow them.
import { FAULT_TARGETS, type FaultStatus } from '../api/sandbox/fault-windows.js';
import { GARBAGE_BODIES, GARBAGE_ROUTES } from './sim-garbage.js';
import type { SimRandom } from './sim-random.js';
import { READ_KINDS, SIM_INSTRUMENTS, type AccountOperation, type Call } from './sim-steps.js';

export type ControlKind = 'prints' | 'advance' | 'reset' | 'fault' | 'clear_faults';

export class CallDrawer {
  /** Where each instrument trades now, in ticks from its base: prints and limits follow it, so orders fill. */
  private readonly midTicks = SIM_INSTRUMENTS.map(() => 0);
  /**
   * Idempotent placements so far: a later step retries one (any client: keys are per firm, so another firm's client
   * reusing it places anew), or reuses its key with another body.
   */
  readonly keyed: Array<Extract<Call, { op: 'place' }>> = [];
  /** The client each key was first drawn for: a retry by another client may send that client's body. */
  readonly keyClients = new Map<string, number>();
  private keys = 0;

  constructor(private readonly random: SimRandom) {}

  /** Sandbox control: prints around the market, clock moves, resets and fault windows. */
  control(kind: ControlKind): Call {
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

  place(keyChance = 0.5): Extract<Call, { op: 'place' }> {
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

  modify(): Call {
    const r = this.random;
    return {
      op: 'modify',
      order: r.int(0, 40),
      ...(r.chance(0.5) ? { quantity: r.int(1, 4) } : {}),
      ...(r.chance(0.6) ? { ticks: this.midTicks[0]! + r.int(-8, 8) } : {}),
    };
  }

  provision(): Call {
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

  accountOperation(): Call {
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

  maxLossLimit(): Call {
    const r = this.random;
    return { op: 'max_loss_limit', account: r.int(0, 9), cents: r.chance(0.2) ? null : r.int(4_500_000, 5_200_000) };
  }

  read(): Call {
    return { op: 'read', what: this.random.pick(READ_KINDS), ref: this.random.int(0, 40) };
  }

  garbage(): Call {
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
