// The steps of a seed (docs/api.md#the-simulation): drawn up front from the seed alone, never from the answers, so
// the same seed always makes the same steps and a failure file's steps run again exactly. The mix: mostly single
// requests of every kind of client, market prints and clock moves; now and then requests at once, an abandoned
// request, a burst past the rate limit, a subscriber, a fault window, a reset and a crash.
import { CHANNELS, type Channel } from '../api/streams/stream-events.js';
import type { ClientSpec } from './sim-clients.js';
import { ClientCalls } from './sim-generate-clients.js';
import { borrow, slow, together } from './sim-generate-races.js';
import type { SimRandom } from './sim-random.js';
import type { Step } from './sim-steps.js';

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

/** The mix of steps: what each kind of client asks is drawn by ClientCalls, the races by sim-generate-races.ts. */
class StepGenerator {
  private readonly from: ClientCalls;

  constructor(
    private readonly random: SimRandom,
    clients: readonly ClientSpec[],
    private readonly realtime: boolean,
  ) {
    this.from = new ClientCalls(random, clients);
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
        return { do: 'call', ...this.from.clientCall(r.int(0, this.from.clients.length - 1)) };
      case 'prints':
      case 'advance':
      case 'reset':
      case 'fault':
      case 'clear_faults':
        return { do: 'call', client: this.from.admin, call: this.from.calls.control(kind) };
      case 'together':
        return { do: 'together', calls: together(this.from) };
      case 'abort': {
        const client = r.int(0, this.from.clients.length - 1);
        const afterTurns = r.chance(0.5) ? ('acted' as const) : r.int(0, 5);
        const via = r.pick(['inject', 'http'] as const);
        return { do: 'abort', ...this.from.writeCall(client), via, afterTurns, retry: r.chance(0.6) };
      }
      case 'slow':
        return slow(this.from);
      case 'borrow':
        return borrow(this.from);
      case 'storm':
        return { do: 'storm', count: r.int(8, 40) };
      case 'burst':
        return { do: 'burst', client: r.int(0, this.from.clients.length - 1), count: r.int(20, 80) };
      case 'subscribe': {
        const channels = CHANNELS.filter(() => r.chance(0.6));
        const again = CHANNELS.filter(() => r.chance(0.6));
        return {
          do: 'subscribe',
          client: r.int(0, this.from.clients.length - 1),
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
            () => this.from.writeCall(r.int(0, this.from.clients.length - 1)),
          ),
          afterTurns: r.chance(0.5) ? 'event' : r.int(0, 6),
          storeFailure: r.chance(0.2),
        };
      case 'wall':
        return { do: 'wall', ms: r.pick([10, 250, 1000, 5000, 60_000]) };
    }
  }
}
