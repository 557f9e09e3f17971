// The sandbox's state behind the API (docs/api.md#start-up): the kernel built from the seed, the seed's keys, and
// what the gateway keeps per caller (revoked sessions, idempotency records, fault windows). `reset` puts it all
// back to the seed. Time moves only through `advanceTo`, which first feeds the --market files up to the target, so
// prints, latencies, expiries, breaches and rolls happen in time order.
// With a durable store (docs/api.md#persistence) every kernel input and every change kept outside the kernel is
// journaled as it happens, and a restart applies the journal again in order: the same inputs, the same state. A
// snapshot of the state, taken every so many lines and at a clean close, lets a restart skip the lines it covers.
import { applyInput, startedKernel } from '../../core/kernel/persistence/journal-replay.js';
import { restoreSnapshot, takeSnapshot } from '../../core/kernel/persistence/state-snapshot.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Outcome } from '../../core/outcome.js';
import type { ClockJson } from '../../core/shapes/clock.js';
import { MarketFeed } from '../../scenario/market-feed.js';
import type { SandboxDb } from '../../store/sandbox-db.js';
import { encodeSnapshot } from '../../store/snapshot-writer.js';
import { RevokedTokens } from '../auth/revoked-tokens.js';
import { SESSION_SECONDS, SessionTokens } from '../auth/session-tokens.js';
import { SecretTable } from '../gateway/secrets.js';
import { StreamLog } from '../streams/stream-log.js';
import { SESSION_ENDED_BY, SessionSockets } from '../streams/session-sockets.js';
import { StreamTickets } from '../streams/stream-tickets.js';
import { DeviceLogins, type Login } from './device-logins.js';
import { FaultWindows, type FaultWindow } from './fault-windows.js';
import { IdempotencyRecords } from './idempotency.js';
import { OneAtATime } from './one-at-a-time.js';
import { keyGrants, newTokenSecret, tokenSecretOf, type KeyGrant } from './sandbox-keys.js';
import { isSandboxRecord, recordLine, type SandboxRecord, type StoredIdempotencyAnswer } from './sandbox-records.js';
import type { ClockMode, SandboxConfig, Session } from './sandbox-config.js';
import type { SandboxSeed } from './seed-file.js';
import { seedFirms, seedKernel } from './sandbox-seeding.js';
import { count, seconds, SNAPSHOT_EVERY_LINES, snapshotDue, snapshotParts } from './sandbox-snapshot.js';
import { firstEntry, JOURNAL_LINE, readableSnapshot, storedEntries } from './stored-journal.js';

export type { KeyGrant } from './sandbox-keys.js';
export { SNAPSHOT_EVERY_LINES } from './sandbox-snapshot.js';

export { DEFAULT_START_MS } from './sandbox-config.js';
export type { ClockMode, SandboxConfig, Session } from './sandbox-config.js';

export class Sandbox {
  kernel!: Kernel;
  /** The seed's keys, looked up in constant time. */
  readonly keys: SecretTable<KeyGrant>;
  readonly faults = new FaultWindows();
  readonly idempotency = new IdempotencyRecords();
  /** Signs and checks session tokens; a reset gives it a new secret, which ends every earlier session. */
  tokens: SessionTokens;
  /** Session token ids revoked by logout or refresh, until the tokens would have expired. */
  readonly revokedTokens = new RevokedTokens();
  /** The events the streams carry, numbered (docs/api.md#streams). */
  readonly streams: StreamLog;
  /** Logins by device and IP, for the shared-device events (docs/api.md#shared-devices). */
  readonly deviceLogins = new DeviceLogins();
  /** One-time tickets that open the firm stream from a browser (docs/api.md#stream-tickets). */
  readonly streamTickets = new StreamTickets();
  /** The trader streams open, by session token: they close when their session ends. */
  readonly sessionSockets = new SessionSockets();
  /**
   * How many resets this process has made: a session admitted in an earlier generation has ended, even while its
   * request is still on its way (gateway/session-open.ts).
   */
  generation = 0;
  private feed!: MarketFeed;
  /** Advances and resets run one at a time: a market file is read between prints. */
  private readonly turns = new OneAtATime();
  /** The durable store, once the sandbox is built from it (a restart applies the journal without writing it). */
  private store: SandboxDb | undefined;
  /** Told after each reset (the realtime clock follows the wall from the start again). */
  private readonly resetListeners: Array<() => void> = [];

  private constructor(
    readonly config: SandboxConfig,
    db: SandboxDb | undefined,
  ) {
    this.keys = new SecretTable(keyGrants(config.seed));
    this.tokens = new SessionTokens(tokenSecretOf(db));
    this.streams = new StreamLog({
      durable: () => this.store?.durable(),
      onActivate: () => this.store?.append(recordLine({ type: 'sandbox.streams_activated' })),
    });
  }

  /** A sandbox on the seed, or, given a store that holds a journal, the sandbox that journal leaves. */
  static async start(config: SandboxConfig, db?: SandboxDb): Promise<Sandbox> {
    const sandbox = new Sandbox(config, db);
    if (db && db.lineCount > 0) await sandbox.restore(db);
    else {
      sandbox.store = db;
      await sandbox.resetNow();
    }
    return sandbox;
  }

  get seed(): SandboxSeed {
    return this.config.seed;
  }

  /** Whether the sandbox keeps its state in a file. */
  get durableFile(): string | undefined {
    return this.store?.file;
  }

  /** Settles once every change so far is durable; undefined when nothing waits (or nothing is kept). */
  durable(): Promise<void> | undefined {
    return this.store?.durable();
  }

  /**
   * The kernel journal's lines since the start or last reset, each ending in a newline (the session export's source).
   * With a store, read from it: the kernel's journal lets go of the lines a snapshot covers.
   */
  async journalText(): Promise<string> {
    return this.store ? this.store.journalText(JOURNAL_LINE) : this.kernel.journal.text();
  }

  /** Calls `listener` after each reset. */
  onReset(listener: () => void): void {
    this.resetListeners.push(listener);
  }

  /**
   * Back to the seed: a new kernel at the start time, the seed's firms and demo accounts, nothing else. It takes its
   * turn with the clock's advances, so an advance in flight ends on the kernel it began on. Every session opened
   * before it ends: the tokens' secret is new (docs/api.md#sandbox-control).
   */
  reset(): Promise<void> {
    return this.turns.run(() => this.resetNow());
  }

  private async resetNow(): Promise<void> {
    await this.feed?.close();
    this.kernel?.journal.tapLines(undefined);
    const { seed, startMs, calendar } = this.config;
    this.kernel = seedKernel(seed, startMs, calendar);
    this.generation++;
    this.faults.clear();
    this.idempotency.clear();
    this.revokedTokens.clear();
    this.deviceLogins.clear();
    this.streamTickets.clear();
    this.sessionSockets.endAll(SESSION_ENDED_BY.reset);
    const secret = newTokenSecret();
    this.tokens = new SessionTokens(secret);
    this.store?.startOver({
      stream_sequence: String(this.streams.lastNumbered),
      streams_active: String(this.streams.activated),
      token_secret: secret.toString('hex'),
    });
    if (this.store) {
      for (const line of this.kernel.journal.linesSince(0)) this.store.append(line); // input.kernel_started
      this.journalInto(this.store);
    }
    seedFirms(this.kernel, seed);
    // The streams follow the kernel from the seeded state on.
    this.keep({ type: 'sandbox.seeded' });
    this.feed = new MarketFeed(this.config.market);
    await this.feed.replayUntil(startMs, this.kernel);
    for (const listener of this.resetListeners) listener();
  }

  /**
   * Rebuilds the sandbox from a store: its snapshot, if it has one, with the journal lines the snapshot covers, then
   * the kernel's inputs and the sandbox's records after it, in order.
   */
  private async restore(db: SandboxDb): Promise<void> {
    const startedMs = performance.now();
    const note = this.config.note;
    this.streams.resume(Number(db.meta('stream_sequence') ?? 0), db.meta('streams_active') === 'true');
    this.kernel = startedKernel(firstEntry(db), this.config.calendar, 'positions');
    const lines = db.lineCount;
    const inSnapshot = db.linesInSnapshot;
    note?.(
      inSnapshot > 0
        ? `restoring ${db.file}: a snapshot of its first ${count(inSnapshot)} journal lines, then ${count(lines - inSnapshot)} more`
        : `restoring ${db.file}: ${count(lines)} journal lines, no snapshot`,
    );
    const snapshot = readableSnapshot(db, this.config.warn);
    if (snapshot) this.restoreSnapshot(snapshot.state);
    for (const entry of storedEntries(db, snapshot?.atLine ?? 1)) {
      if (isSandboxRecord(entry)) this.apply(entry);
      else applyInput(this.kernel, entry);
    }
    this.feed = new MarketFeed(this.config.market);
    await this.feed.skip(Number(db.meta('market_prints') ?? 0));
    this.store = db;
    this.journalInto(db);
    note?.(`restored in ${seconds(performance.now() - startedMs)}`);
  }

  /** What a snapshot keeps (sandbox-snapshot.ts). */
  private snapshotParts() {
    const { kernel, idempotency, deviceLogins, faults, streams, revokedTokens } = this;
    return snapshotParts({ kernel, idempotency, deviceLogins, faults, streams, revokedTokens });
  }

  /**
   * Puts a decoded snapshot into the fresh kernel and parts. The journal comes back holding none of the lines the
   * snapshot covers, as it was when the snapshot was taken: the store has them.
   */
  private restoreSnapshot(state: unknown): void {
    const { parts } = this.snapshotParts();
    const { revokedTokens } = restoreSnapshot(state, parts) as { revokedTokens?: Set<string> };
    // A snapshot of an earlier version kept the ids as a set, without expiries: each expires within a session's
    // length of the snapshot's time, at the latest.
    const nowMs = this.kernel.nowMs;
    for (const tokenId of revokedTokens ?? [])
      this.revokedTokens.revoke(tokenId, nowMs + SESSION_SECONDS * 1000, nowMs);
    this.kernel.catchUpIndexes();
    this.streams.restored(this.kernel);
  }

  /**
   * Commits a snapshot of the state now, with the lines before it: a restart starts from here. The store asks for one
   * every `snapshotEveryLines` lines, and a clean stop takes one; nothing happens without a store.
   */
  saveSnapshot(): void {
    if (!this.store) return;
    const startedMs = performance.now();
    // The store has every line so far (with this snapshot, in one commit): the journal need not hold them too.
    this.kernel.letGoOfJournalLines();
    this.revokedTokens.prune(this.kernel.nowMs); // an expired token is refused as such: its id need not be kept
    const { parts, omit } = this.snapshotParts();
    this.store.saveSnapshot(takeSnapshot(parts, encodeSnapshot, { omit }));
    this.config.note?.(
      `snapshot of the state at journal line ${count(this.store.linesInSnapshot)}: held the server ${seconds(performance.now() - startedMs)}`,
    );
  }

  /** Sends each line the kernel's journal keeps from now on to the store, and snapshots as the lines add up. */
  private journalInto(db: SandboxDb): void {
    this.kernel.journal.tapLines((line) => db.append(line));
    const every = this.config.snapshotEveryLines ?? SNAPSHOT_EVERY_LINES;
    db.commitWith(
      () => ({ market_prints: String(this.feed?.printsRead ?? 0) }),
      () => {
        if (snapshotDue(db.linesSinceSnapshot, db.linesInSnapshot, every)) this.saveSnapshot();
      },
    );
  }

  /** A login, for the shared-device events: the flags it raises go out on the firm stream. */
  login(login: Login): void {
    this.keep({ type: 'sandbox.login', data: login });
  }

  /** A logout: the token is revoked and its streams close. */
  endSession(session: Session): void {
    this.revoke(session);
    this.sessionSockets.end(session.tokenId, SESSION_ENDED_BY.logout);
  }

  /**
   * A refresh, first step: the old token is revoked at once, before the new one is signed (which waits), so that a
   * second refresh or a logout of the same token meanwhile is refused (routes/auth.ts).
   */
  beginRefresh(old: Session): void {
    this.revoke(old);
  }

  /** A refresh, last step: the old token's streams go on under the new one. */
  endRefresh(old: Session, next: Session): void {
    this.sessionSockets.renew(old.tokenId, next.tokenId, next.expiresAtMs);
  }

  private revoke({ tokenId, expiresAtMs }: Session): void {
    this.keep({ type: 'sandbox.token_revoked', data: { token_id: tokenId, expires_at_ms: expiresAtMs } });
  }

  storeIdempotentAnswer(answer: StoredIdempotencyAnswer): void {
    this.keep({ type: 'sandbox.idempotency_stored', data: answer });
  }

  openFault(window: Omit<FaultWindow, 'faultId'>): FaultWindow {
    const opened = FaultWindows.make(window);
    this.keep({ type: 'sandbox.fault_opened', data: opened });
    return opened;
  }

  clearFaults(): void {
    this.keep({ type: 'sandbox.faults_cleared' });
  }

  /** Journals a change kept outside the kernel, then makes it. */
  private keep(record: SandboxRecord): void {
    this.store?.append(recordLine(record));
    this.apply(record);
  }

  private apply(record: SandboxRecord): void {
    switch (record.type) {
      case 'sandbox.seeded':
        return this.streams.follow(this.kernel);
      case 'sandbox.streams_activated':
        return this.streams.activate();
      case 'sandbox.login': {
        const login = record.data;
        for (const flag of this.deviceLogins.record(login))
          this.streams.publishFirmEvent(flag.type, login.firmId, login.atMs, flag.data);
        return;
      }
      case 'sandbox.token_revoked': {
        // A record of an earlier version has no expiry: the token expired within a session's length of its revoking.
        const nowMs = this.kernel.nowMs;
        const expiresAtMs = record.data.expires_at_ms ?? nowMs + SESSION_SECONDS * 1000;
        return this.revokedTokens.revoke(record.data.token_id, expiresAtMs, nowMs);
      }
      case 'sandbox.idempotency_stored': {
        const { firm, key, fingerprint, status, body, expires_at_ms: expiresAtMs } = record.data;
        return this.idempotency.store(firm, key, { fingerprint, status, body, expiresAtMs }, this.kernel.nowMs);
      }
      case 'sandbox.fault_opened':
        return this.faults.add(record.data);
      case 'sandbox.faults_cleared':
        return this.faults.clear();
    }
  }

  /** The firm id behind a slug of the seed (keys name firms by slug). */
  firmIdOf(slug: string): string {
    return this.kernel.read.firm(slug)!.firm_id;
  }

  clock(): ClockJson & { mode: ClockMode } {
    return { ...this.kernel.read.clock(), mode: this.config.clockMode };
  }

  /**
   * Moves the clock to the target: market prints up to it first, then everything due on the way. The target is
   * worked out when the advance's turn comes (`by` counts from the clock then, after any reset queued before it).
   */
  advanceTo(target: () => number): Promise<Outcome<ClockJson>> {
    return this.turns.run(async () => {
      const toMs = target();
      if (toMs < this.kernel.nowMs) return this.kernel.dispatch({ type: 'advance', to_ms: toMs });
      await this.feed.replayUntil(toMs, this.kernel);
      const advanced = this.kernel.dispatch({ type: 'advance', to_ms: toMs });
      this.sessionSockets.endExpired(this.kernel.nowMs);
      return advanced;
    });
  }

  /**
   * As advanceTo, but nothing happens (nothing is journaled) when the clock is already there: the realtime clock,
   * whose `now` is asked when the turn comes, so that a reset queued before it holds.
   */
  async catchUpTo(now: () => number): Promise<void> {
    await this.turns.run(async () => {
      const toMs = now();
      if (toMs <= this.kernel.nowMs) return;
      await this.feed.replayUntil(toMs, this.kernel);
      this.kernel.dispatch({ type: 'advance', to_ms: toMs });
      this.sessionSockets.endExpired(this.kernel.nowMs);
    });
  }

  /** When something is next due: a kernel timer or a market print (-Infinity: the next prints are not read yet). */
  nextDueMs(): number | undefined {
    const timer = this.kernel.nextDueMs;
    const print = this.feed.nextPrintMs();
    if (timer === undefined) return print;
    return print === undefined ? timer : Math.min(timer, print);
  }

  /** Whether closing now writes a snapshot: journal lines came after the last one. */
  get snapshotsOnClose(): boolean {
    return (this.store?.linesSinceSnapshot ?? 0) > 0;
  }

  /** Stops reading the market files and, after a last commit with a snapshot when one is due, closes the store. */
  async close(): Promise<void> {
    await this.feed.close();
    if (this.snapshotsOnClose) this.saveSnapshot();
    await this.store?.close();
  }
}
