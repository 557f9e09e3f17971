// What each kind of client asks for (docs/api.md#the-simulation): operators, viewers, admins, traders and rogues
// each draw from a mix of their own, and address it as they would (a trader picks which token to send, an admin
// names a firm). Apart from the bodies (sim-generate-calls.ts) because this is who sends what, not what is sent.
import { PRODUCT_FAMILIES } from '../core/instruments.js';
import type { ClientSpec } from './sim-clients.js';
import { CallDrawer } from './sim-generate-calls.js';
import { GUARDED_ROUTES } from './sim-garbage.js';
import type { SimRandom } from './sim-random.js';
import type { Call, ClientCall } from './sim-steps.js';

export class ClientCalls {
  readonly calls: CallDrawer;
  readonly admin: number;

  constructor(
    readonly random: SimRandom,
    readonly clients: readonly ClientSpec[],
  ) {
    this.calls = new CallDrawer(random);
    this.admin = Math.max(
      0,
      clients.findIndex((c) => c.kind === 'admin'),
    );
  }

  /** The clients that are traders, by index. */
  traders(): number[] {
    return this.clients.flatMap((c, i) => (c.kind === 'trader' ? [i] : []));
  }

  clientCall(client: number): ClientCall {
    const spec = this.clients[client]!;
    const call = this.callOf(spec);
    if (call.op === 'place' && call.key !== undefined && !this.calls.keyClients.has(call.key))
      this.calls.keyClients.set(call.key, client);
    return this.addressed(client, call);
  }

  /** A trader picks which of its tokens to send; an admin names a firm, or (rarely) none. */
  addressed(client: number, call: Call): ClientCall {
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

  /** A write of the kind a crash or an abort cuts short: mostly keyed placements, whose retry must be safe. */
  writeCall(client: number): ClientCall {
    const r = this.random;
    const calls = this.calls;
    const spec = this.clients[client]!;
    if (spec.kind === 'admin' && r.chance(0.3))
      return { client, call: calls.control(r.pick(['advance', 'prints', 'fault', 'reset', 'prints'] as const)) };
    if (spec.kind === 'trader' && r.chance(0.25))
      return this.addressed(
        client,
        r.pick<Call>([{ op: 'login', email: r.int(0, 3) }, { op: 'logout' }, { op: 'refresh' }]),
      );
    const call = r.weighted<() => Call>([
      [6, () => calls.place(0.9)],
      [1, () => calls.accountOperation()],
      [1, () => ({ op: 'cancel', order: r.int(0, 40) })],
      [1, () => calls.provision()],
    ])();
    return this.addressed(client, call);
  }

  private callOf(spec: ClientSpec): Call {
    const r = this.random;
    const calls = this.calls;
    switch (spec.kind) {
      case 'operator':
        return r.weighted<() => Call>([
          [30, () => calls.place()],
          [6, () => calls.modify()],
          [8, () => ({ op: 'cancel', order: r.int(0, 40) })],
          [3, () => ({ op: 'oco_link', orders: [r.int(0, 40), r.int(0, 40)] })],
          [2, () => ({ op: 'oco_companion', group: r.int(0, 9), order: r.int(0, 40) })],
          [6, () => calls.provision()],
          [8, () => calls.accountOperation()],
          [3, () => ({ op: 'adjust', account: r.int(0, 9), cents: r.int(-50_000, 50_000) })],
          [2, () => ({ op: 'daily_loss_trigger', account: r.int(0, 9), cents: r.int(4_800_000, 5_000_000) })],
          [2, () => calls.maxLossLimit()],
          [1, () => ({ op: 'offering', family: r.pick(PRODUCT_FAMILIES), enabled: r.chance(0.7) })],
          [25, () => calls.read()],
        ])();
      case 'viewer':
        return r.weighted<() => Call>([
          [70, () => calls.read()],
          [10, () => calls.place()],
          [10, () => calls.accountOperation()],
          [5, () => calls.provision()],
        ])();
      case 'admin':
        return r.weighted<() => Call>([
          [25, () => calls.read()],
          [10, () => calls.place()],
          [4, () => calls.provision()],
          [4, () => calls.accountOperation()],
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
          [30, () => calls.place()],
          [5, () => calls.modify()],
          [8, () => ({ op: 'cancel', order: r.int(0, 40) })],
          [2, () => ({ op: 'oco_link', orders: [r.int(0, 40), r.int(0, 40)] })],
          [30, () => calls.read()],
          [4, () => calls.accountOperation()],
        ])();
      case 'rogue':
        return r.weighted<() => Call>([
          [15, () => calls.place()],
          [10, () => ({ op: 'cancel', order: r.int(0, 40) })],
          [5, () => calls.modify()],
          [20, () => calls.read()],
          [10, () => calls.accountOperation()],
          [3, () => ({ op: 'adjust', account: r.int(0, 9), cents: r.int(-5000, 5000) })],
          [25, () => calls.garbage()],
          [
            20,
            () => ({
              op: 'bad_auth',
              how: r.pick(['none', 'unknown_key', 'both_headers', 'firm_header'] as const),
              route: r.int(0, GUARDED_ROUTES.length - 1),
            }),
          ],
          [2, () => calls.control(r.pick(['prints', 'advance', 'reset', 'fault'] as const))],
        ])();
    }
  }
}
