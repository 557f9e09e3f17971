// A simulation's plan (docs/api.md#the-simulation): the seed, the settings drawn from it (a small rate limit for
// some seeds, a realtime clock for others, how often a snapshot is taken), the clients and the steps. A plan is
// plain data: a failure file holds one, and `--replay` runs it again exactly.
import { DEFAULT_START_MS, type SandboxConfig } from '../api/sandbox/sandbox.js';
import { DEFAULT_SEED_FILE, loadSeedFile, type SandboxSeed } from '../api/sandbox/seed-file.js';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { castOf, clientsFor, type ClientSpec, type SimCast } from './sim-clients.js';
import { generateSteps } from './sim-generate.js';
import { SimRandom } from './sim-random.js';
import type { Step } from './sim-steps.js';

export interface SimSettings {
  /** The seed's rate limit (docs/api.md#rate-limits); absent: lifted, so that only a burst meets one. */
  rateLimit?: { perSecond: number; burst: number };
  clock: 'manual' | 'realtime';
  /** A snapshot every this many journal lines (docs/api.md#persistence): small, so restarts start from one. */
  snapshotEveryLines: number;
  /** The state invariants run every this many steps (and at the end, and after every restart). */
  checkEvery: number;
}

export interface SimPlan {
  seed: number;
  settings: SimSettings;
  clients: ClientSpec[];
  steps: Step[];
}

export interface PlanRequest {
  seed: number;
  steps: number;
  clients: number;
  checkEvery?: number;
}

/** The bundled seed file: the firms, keys and plans the clients use. */
export function simSeed(): SandboxSeed {
  return loadSeedFile(DEFAULT_SEED_FILE);
}

export function planOf(request: PlanRequest, cast: SimCast = castOf(simSeed())): SimPlan {
  const random = new SimRandom(request.seed);
  const settings: SimSettings = {
    ...(random.chance(1 / 6) ? { rateLimit: { perSecond: 400, burst: 30 } } : {}),
    clock: random.chance(1 / 5) ? 'realtime' : 'manual',
    snapshotEveryLines: random.pick([60, 300, 250_000]),
    checkEvery: request.checkEvery ?? 25,
  };
  const clients = clientsFor(random, request.clients, cast.firms.length);
  const steps = generateSteps(random, request.steps, clients, settings.clock === 'realtime');
  return { seed: request.seed, settings, clients, steps };
}

const calendar = new GlobexCalendar(loadHolidayFile());

/**
 * The sandbox a plan runs against: the bundled seed with the plan's rate limit, clock and snapshots. `warn` hears
 * what a restart could not use (a snapshot it could not read, which the simulation counts as a failure).
 */
export function sandboxConfigOf(
  settings: SimSettings,
  warn: (message: string) => void,
  seed: SandboxSeed = simSeed(),
): SandboxConfig {
  return {
    // The failed-authentication limit runs on the wall clock and the rogue client fails on purpose, so it is lifted
    // here (test/api/gateway-hardening.test.ts holds it to its rules).
    seed: {
      ...seed,
      rateLimit: settings.rateLimit ?? { perSecond: 1e6, burst: 1e6 },
      failedAuthLimit: { perSecond: 1e6, burst: 1e6 },
    },
    startMs: seed.startMs ?? DEFAULT_START_MS,
    calendar,
    market: [],
    clockMode: settings.clock,
    snapshotEveryLines: settings.snapshotEveryLines,
    warn,
  };
}
