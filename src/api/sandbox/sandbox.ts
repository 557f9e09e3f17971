// The sandbox's state behind the API (docs/api.md#start-up): the kernel built from the seed, the seed's keys, and
// what the gateway keeps per caller (revoked sessions, idempotency records, fault windows). `reset` puts it all
// back to the seed. Time moves only through `advanceTo`, which first feeds the --market files up to the target, so
// prints, latencies, expiries, breaches and rolls happen in time order.
import type { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import { Kernel } from '../../core/kernel/kernel.js';
import { planJson } from '../../core/kernel/risk-json.js';
import { CommandRefusal, type Outcome } from '../../core/outcome.js';
import type { ClockJson } from '../../core/shapes/clock.js';
import type { MarketFileSpec } from '../../market/market-file-spec.js';
import { MarketFeed } from '../../scenario/market-feed.js';
import { SessionTokens } from '../auth/session-tokens.js';
import { StreamLog } from '../streams/stream-log.js';
import { StreamTickets } from '../streams/stream-tickets.js';
import { DeviceLogins } from './device-logins.js';
import { FaultWindows } from './fault-windows.js';
import { IdempotencyRecords } from './idempotency.js';
import type { KeyRole, SandboxSeed, Scope } from './seed-file.js';

export type ClockMode = 'manual' | 'realtime';

export interface SandboxConfig {
  seed: SandboxSeed;
  /** The clock's start: --start, else the seed's start, else the default (docs/api.md#start-up). */
  startMs: number;
  calendar: GlobexCalendar;
  market: readonly MarketFileSpec[];
  clockMode: ClockMode;
}

/** What a key in the seed grants. */
export type KeyGrant =
  { kind: 'firm_key'; firmSlug: string; role: KeyRole; scopes: readonly Scope[] } | { kind: 'admin' };

/** 2026-03-02T08:00:00-06:00: a Monday morning with the equity market open. */
export const DEFAULT_START_MS = Date.UTC(2026, 2, 2, 14, 0, 0);

export class Sandbox {
  kernel!: Kernel;
  readonly keys: ReadonlyMap<string, KeyGrant>;
  readonly faults = new FaultWindows();
  readonly idempotency = new IdempotencyRecords();
  readonly tokens = new SessionTokens();
  /** Session token ids revoked by logout or refresh. */
  readonly revokedTokens = new Set<string>();
  /** The events the streams carry, numbered (docs/api.md#streams). */
  readonly streams = new StreamLog();
  /** Logins by device and IP, for the shared-device events (docs/api.md#shared-devices). */
  readonly deviceLogins = new DeviceLogins();
  /** One-time tickets that open the firm stream from a browser (docs/api.md#stream-tickets). */
  readonly streamTickets = new StreamTickets();
  private feed!: MarketFeed;
  /** Advances run one at a time: a market file is read between prints. */
  private advancing: Promise<unknown> = Promise.resolve();

  private constructor(readonly config: SandboxConfig) {
    this.keys = keyGrants(config.seed);
  }

  static async start(config: SandboxConfig): Promise<Sandbox> {
    const sandbox = new Sandbox(config);
    await sandbox.reset();
    return sandbox;
  }

  get seed(): SandboxSeed {
    return this.config.seed;
  }

  /** Back to the seed: a new kernel at the start time, the seed's firms and demo accounts, nothing else. */
  async reset(): Promise<void> {
    await this.feed?.close();
    const { seed, startMs, calendar } = this.config;
    this.kernel = new Kernel({
      startMs,
      seed: seed.seed,
      calendar,
      fillModel: seed.fillModel,
      riskLoadDelayMs: seed.riskLoadDelayMs,
      // Only the lines daily position reads need: a line per order would grow the memory of a long session.
      journal: 'positions',
    });
    this.faults.clear();
    this.idempotency.clear();
    this.revokedTokens.clear();
    this.deviceLogins.clear();
    this.streamTickets.clear();
    for (const firm of seed.firms) {
      const registered = this.kernel.dispatch({
        type: 'register_firm',
        slug: firm.slug,
        name: firm.name,
        plans: Object.fromEntries([...firm.plans].map(([reference, plan]) => [reference, planJson(plan)])),
        staff: firm.staff.map((s) => ({ email: s.email, ...(s.firstName ? { first_name: s.firstName } : {}) })),
      });
      const firmId = settled(registered).firm_id;
      for (const account of firm.accounts) {
        const user = {
          email: account.email,
          ...(account.firstName ? { first_name: account.firstName } : {}),
          ...(account.lastName ? { last_name: account.lastName } : {}),
        };
        const body = { user, plan_reference: account.planReference, count: account.count };
        settled(this.kernel.dispatch({ type: 'provision_accounts', firm_id: firmId, body }));
      }
    }
    // The streams follow the kernel from the seeded state on.
    this.streams.follow(this.kernel);
    this.feed = new MarketFeed(this.config.market);
    await this.feed.replayUntil(startMs, this.kernel);
  }

  /** The firm id behind a slug of the seed (keys name firms by slug). */
  firmIdOf(slug: string): string {
    return this.kernel.read.firm(slug)!.firm_id;
  }

  clock(): ClockJson & { mode: ClockMode } {
    return { ...this.kernel.read.clock(), mode: this.config.clockMode };
  }

  /** Moves the clock to `toMs`: market prints up to it first, then everything due on the way. */
  advanceTo(toMs: number): Promise<Outcome<ClockJson>> {
    const run = this.advancing.then(async () => {
      if (toMs < this.kernel.nowMs) return this.kernel.dispatch({ type: 'advance', to_ms: toMs });
      await this.feed.replayUntil(toMs, this.kernel);
      return this.kernel.dispatch({ type: 'advance', to_ms: toMs });
    });
    this.advancing = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.feed.close();
  }
}

function keyGrants(seed: SandboxSeed): Map<string, KeyGrant> {
  const keys = new Map<string, KeyGrant>();
  for (const key of seed.platformAdminKeys) keys.set(key, { kind: 'admin' });
  for (const firm of seed.firms)
    for (const k of firm.apiKeys)
      keys.set(k.key, { kind: 'firm_key', firmSlug: firm.slug, role: k.role, scopes: k.scopes });
  return keys;
}

/** A seed the loader accepted must also be accepted by the kernel; if not, that is a bug worth a stack. */
function settled<T>(outcome: Outcome<T>): T {
  if (!outcome.ok)
    throw new CommandRefusal(outcome.status, outcome.body.code, `the seed was refused: ${outcome.body.error}`);
  return outcome.body;
}
