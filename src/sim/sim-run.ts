// Runs a plan against the real app (docs/api.md#the-simulation): each step's requests go through inject, the
// subscribers through a loopback listener; every answer is checked as it comes, the state every few steps, after
// every restart and at the end. The first broken invariant stops the run and is its result.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '../api/sandbox/sandbox.js';
import { checkAnswer, errorCode, FAULT_CODES, parsed, type Sent } from './sim-answer-checks.js';
import { castOf, type SimCast } from './sim-clients.js';
import { digestDifference, kernelDigest } from './sim-digest.js';
import { expectThat, InvariantFailure, type InvariantName } from './sim-failure.js';
import { learnAnswer, learnUnanswered } from './sim-learn.js';
import { SimModel } from './sim-model.js';
import { OwnershipIndex } from './sim-ownership.js';
import { sandboxConfigOf, simSeed, type SimPlan } from './sim-plan.js';
import { prepare, type Prepared } from './sim-requests.js';
import { checkJournalReplay, checkPositionsAndBalances } from './sim-state-checks.js';
import type { Call, ClientCall, Step } from './sim-steps.js';
import { Subscribers } from './sim-subscribers.js';
import { nextTurn, SimSystem, type SimAnswer, type SimHooks } from './sim-system.js';

export interface RunOptions {
  /** Where the run's SQLite file goes (a fresh folder in it, removed after a run that passed). */
  dbDir: string;
  hooks?: SimHooks;
  /** How long a request may go unanswered (wall time) before the run fails with `unanswered`. */
  requestTimeoutMs?: number;
}

export interface RunFailure {
  invariant: InvariantName;
  message: string;
  /** The index of the step it broke at (steps.length: the checks at the end). */
  step: number;
}

export interface RunResult {
  failure?: RunFailure;
  steps: number;
  requests: number;
  crashes: number;
  /** How many answers of each kind (`202`, `404 account_not_found`, …) the run got. */
  answers: Record<string, number>;
  /** The SQLite file of a failed run, kept for a look. */
  dbFile?: string;
}

export async function runPlan(plan: SimPlan, options: RunOptions): Promise<RunResult> {
  const folder = mkdtempSync(join(options.dbDir, 'propsim-sim-'));
  const run = new SimRun(plan, join(folder, 'sandbox.sqlite'), options);
  // An error that escapes the app would end a real server's process: it fails the run.
  const escaped = (error: unknown) => run.escaped(error);
  process.on('unhandledRejection', escaped);
  process.on('uncaughtException', escaped);
  let failure: RunFailure | undefined;
  try {
    failure = await run.all();
    await run.stop(failure !== undefined);
  } finally {
    process.off('unhandledRejection', escaped);
    process.off('uncaughtException', escaped);
  }
  if (!failure) rmSync(folder, { recursive: true, force: true });
  return {
    ...(failure ? { failure, dbFile: run.file } : {}),
    steps: run.stepsRun,
    requests: run.requests,
    crashes: run.crashes,
    answers: run.answers,
  };
}

/** The failed-authentication limit of the app that storms of wrong passwords go to. */
const STORM_LIMIT = { perSecond: 1, burst: 5 };

/** How many turns a crash timed by the stream log waits for an event before it comes anyway. */
const EVENT_WAIT_TURNS = 20;

/** Sandbox control that moves the clock, resets or opens windows: what runs at once with it is uncertain. */
const CONTROL_OPS: ReadonlySet<Call['op']> = new Set(['advance', 'reset', 'fault', 'clear_faults']);
/** Session changes: a request at once with one may find the session before or after it. */
const SESSION_OPS: ReadonlySet<Call['op']> = new Set(['login', 'logout', 'refresh']);

class SimRun {
  private readonly cast: SimCast = castOf(simSeed());
  private readonly model: SimModel;
  private readonly ownership: OwnershipIndex;
  private readonly subscribers: Subscribers;
  private system!: SimSystem;
  /** Requests of this process answered before it died: what the journal on disk must keep. */
  private acknowledged = new Set<number>();
  /** Requests whose answer nobody saw (aborted, or on their way at a crash). */
  private unanswered: Sent[] = [];
  /** Requests on their way, by idempotency id: a second one with the key may be told it is in progress. */
  private readonly outstanding = new Map<string, Set<Sent>>();
  private readonly warnings: string[] = [];
  /** The step under way. */
  private pending: Promise<void> | undefined;
  /** Rejects once an error escapes the app: whatever the run waits for, it stops there. */
  private readonly died: Promise<never>;
  private die!: (failure: InvariantFailure) => void;
  private readonly timeoutMs: number;
  private step = 0;
  stepsRun = 0;
  requests = 0;
  /** Storms so far: each comes from an address of its own. */
  private storms = 0;
  crashes = 0;
  readonly answers: Record<string, number> = {};

  constructor(
    private readonly plan: SimPlan,
    readonly file: string,
    private readonly options: RunOptions,
  ) {
    this.model = new SimModel(this.cast.firms.length);
    this.ownership = new OwnershipIndex(this.cast, () => this.system.sandbox.kernel);
    this.subscribers = new Subscribers(this.ownership, this.cast);
    this.timeoutMs = options.requestTimeoutMs ?? 10_000;
    this.died = new Promise<never>((_, reject) => (this.die = reject));
    this.died.catch(() => undefined);
  }

  /** An error escaped the app (an unhandled rejection or exception): a real server would have died of it. */
  escaped(error: unknown): void {
    // A check that failed in a callback of the simulation's own (a socket's event) is that check's failure.
    if (error instanceof InvariantFailure) return this.die(error);
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.die(new InvariantFailure('unhandled-error', `an error escaped the app, which would end the process: ${text}`));
  }

  private get sandbox(): Sandbox {
    return this.system.sandbox;
  }

  private get startMs(): number {
    return this.sandbox.config.startMs;
  }

  /** Every step, then the checks at the end; the first broken invariant, or undefined. */
  async all(): Promise<RunFailure | undefined> {
    try {
      const config = sandboxConfigOf(this.plan.settings, (message) => this.warnings.push(message));
      this.system = await SimSystem.start(this.file, config, this.options.hooks);
      // The start's own journal lines (the seed) are on disk before the first step, as after any step: a crash
      // that comes first then tests what it should, not how fast the writer's first commit was.
      await this.system.quiesce();
      for (this.step = 0; this.step < this.plan.steps.length; this.step++) {
        this.pending = this.run(this.plan.steps[this.step]!);
        this.pending.catch(() => undefined); // the run may stop waiting for it (an escaped error): see stop()
        await Promise.race([this.pending, this.died]);
        this.stepsRun++;
        await this.afterStep();
        if ((this.step + 1) % this.plan.settings.checkEvery === 0) await this.checkState();
      }
      await this.checkState();
      await this.cleanRestart();
      return undefined;
    } catch (error) {
      if (!(error instanceof InvariantFailure)) throw error;
      return { invariant: error.invariant, message: error.message, step: this.step };
    }
  }

  /** Closes what the run left open: a failed run's system may be half dead, so it is killed instead. */
  async stop(failed: boolean): Promise<void> {
    this.subscribers.close();
    if (!this.system) return;
    if (!failed) return this.system.close();
    // A step the run stopped waiting for may still be restarting the system: give it a moment to settle.
    const settled = this.pending?.catch(() => undefined);
    await Promise.race([settled, new Promise((settle) => setTimeout(settle, 2000))]);
    await this.system.retire();
  }

  /** A step that may reset: the subscribers are checked before it, and compare from the reset on after it. */
  private async run(step: Step): Promise<void> {
    const resets = callsOf(step).some((c) => c.call.op === 'reset');
    if (resets) await this.subscribers.check(this.system);
    await this.runStep(step);
    if (resets && step.do !== 'crash') this.subscribers.rebaseline(this.system);
  }

  private async runStep(step: Step): Promise<void> {
    switch (step.do) {
      case 'call': {
        if (step.first) await this.runStep({ do: 'call', ...step.first });
        const sent = this.begin(step, false);
        this.judge(sent, await this.answered(sent));
        return;
      }
      case 'together':
        return this.together(step.calls);
      case 'abort':
        return this.abort(step);
      case 'slow':
        return this.slow(step);
      case 'storm':
        return this.storm(step.count);
      case 'burst':
        return this.together(
          Array.from({ length: step.count }, () => ({
            client: step.client,
            call: { op: 'read', what: 'balances', ref: 1 },
          })),
        );
      case 'subscribe':
        return this.subscribers.subscribe(step, {
          clients: this.plan.clients,
          cast: this.cast,
          model: this.model,
          system: this.system,
        });
      case 'crash':
        return this.crash(step);
      case 'wall':
        this.model.clockAtReset = undefined;
        return this.system.passWall(step.ms);
    }
  }

  /** Whether a request makes what runs at once with it uncertain: sandbox control by an admin, a session change. */
  private races(cc: ClientCall): boolean {
    const admin = this.plan.clients[cc.client]?.kind === 'admin';
    return (admin && CONTROL_OPS.has(cc.call.op)) || SESSION_OPS.has(cc.call.op);
  }

  /** Prepares and sends one request; its answer is awaited by whoever needs it. */
  private begin(
    cc: ClientCall,
    racing: boolean,
    signal?: AbortSignal,
    prepared?: Prepared,
    via: 'inject' | 'http' | Transport = 'inject',
  ): Sent & { reply: Promise<SimAnswer> } {
    const request = prepared ?? prepare(cc, this.resolveContext());
    const sent: Sent = {
      no: ++this.requests,
      step: this.step,
      cc,
      prepared: request,
      nowMs: this.system.nowMs(),
      epoch: this.system.epoch,
      racing,
      overlapping: false,
      storeFailed: this.model.storeFailed,
    };
    this.claim(sent);
    const options = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
      ...(signal ? { signal } : {}),
    };
    const send: Transport =
      via === 'http'
        ? (no, sending) => this.system.http(no, sending)
        : via === 'inject'
          ? (no, sending) => this.system.inject(no, sending)
          : via;
    const reply = send(sent.no, options).then((answer) => {
      if (sent.epoch === this.system.epoch && !sent.abandoned) {
        sent.answer = answer;
        sent.storeFailed ||= this.model.storeFailed && isStoreUnavailable(answer);
        if (!sent.storeFailed) this.acknowledged.add(sent.no);
      }
      this.release(sent);
      return answer;
    });
    reply.catch(() => undefined); // an abandoned request's rejection is looked at by whoever waits, if anyone
    return Object.assign(sent, { reply });
  }

  private resolveContext() {
    return { cast: this.cast, clients: this.plan.clients, model: this.model, kernel: this.sandbox.kernel };
  }

  /** Its answer, within the timeout: a request never answered is a broken invariant. */
  private async answered(sent: Sent & { reply: Promise<SimAnswer> }): Promise<SimAnswer> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, fail) => {
      timer = setTimeout(
        () =>
          fail(
            new InvariantFailure(
              'unanswered',
              `${sent.prepared.method} ${sent.prepared.url} (request #${sent.no}) was not answered within ${this.timeoutMs} ms${this.model.storeFailed ? ' after the store failed' : ''}`,
            ),
          ),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([sent.reply, timeout, this.died]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Checks an answer, then learns from it. */
  private judge(sent: Sent, answer: SimAnswer): void {
    if (sent.answer !== answer) return; // an answer that came after the crash, or the abort: nobody saw it
    const kind = `${answer.status} ${errorCode(parsed(answer)) ?? ''}`.trim();
    this.answers[kind] = (this.answers[kind] ?? 0) + 1;
    checkAnswer(sent, answer, {
      model: this.model,
      ownership: this.ownership,
      linesOf: (no) => this.system.shadow.linesOf(no),
      startMs: this.startMs,
    });
    learnAnswer(sent, answer, { model: this.model, cast: this.cast, startMs: this.startMs });
  }

  /** Requests at once; their answers judged once all are in, first-time answers before replays. */
  private async together(calls: readonly ClientCall[]): Promise<void> {
    const racing = calls.length > 1 && calls.some((c) => this.races(c));
    const prepared = calls.map((cc) => prepare(cc, this.resolveContext()));
    const sent = calls.map((cc, i) => this.begin(cc, racing, undefined, prepared[i]));
    const answers = await Promise.all(sent.map((s) => this.answered(s)));
    checkSingleUse(sent, answers);
    const order = sent.map((s, i) => i).sort((a, b) => Number(isReplay(answers[a]!)) - Number(isReplay(answers[b]!)));
    for (const i of order) this.judge(sent[i]!, answers[i]!);
  }

  /** A request abandoned after some turns (and maybe retried at once); what it did is read from the journal. */
  private async abort(step: Extract<Step, { do: 'abort' }>): Promise<void> {
    const controller = new AbortController();
    const prepared = prepare(step, this.resolveContext());
    const sent = this.begin(step, false, controller.signal, prepared, step.via);
    const abandon = () => {
      sent.abandoned = !sent.answer;
      controller.abort();
    };
    const forget = step.afterTurns === 'acted' ? this.system.whenActed(sent.no, abandon) : undefined;
    for (let turn = 0; turn < (step.afterTurns === 'acted' ? 0 : step.afterTurns); turn++) await nextTurn();
    if (!forget) abandon();
    // Answered before it was abandoned, or abandoned: either way it settles (an unanswered one fails the run).
    await this.answered(sent).catch((error: unknown) => {
      if (!sent.abandoned) throw error;
    });
    forget?.();
    if (sent.answer) this.judge(sent, sent.answer);
    else {
      this.unanswered.push(sent);
      // Whether an abandoned logout or refresh ended its session is known only once the journal says so (afterStep).
      const caller = sent.prepared.caller;
      const endsSession = sent.cc.call.op === 'logout' || sent.cc.call.op === 'refresh';
      if (endsSession && caller.kind === 'user' && caller.token.state === 'live') caller.token.state = 'unknown';
    }
    if (step.retry) {
      const retry = this.begin(step, false, undefined, prepared);
      this.judge(retry, await this.answered(retry));
    }
  }

  /**
   * `count` wrong passwords at once, from an address of their own, to an app with a small failed-authentication
   * limit (docs/api.md#rate-limits): at most its burst (and what refills meanwhile) are judged 401, the rest 429,
   * and none of them writes anything.
   */
  private async storm(count: number): Promise<void> {
    const address = `10.77.${(++this.storms >> 8) & 255}.${this.storms & 255}`;
    const firm = this.cast.firms[0]!;
    const login = {
      method: 'POST' as const,
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: firm.emails[0], password: `not ${this.cast.password}` }),
    };
    const lines = this.system.shadow.current.length;
    const startedMs = performance.now();
    const answers = await this.system.storm(
      Array.from({ length: count }, () => login),
      STORM_LIMIT,
      address,
    );
    const refilled = Math.floor(((performance.now() - startedMs) / 1000) * STORM_LIMIT.perSecond);
    this.requests += count;
    const kinds = answers.map((a) => `${a.status} ${errorCode(parsed(a)) ?? ''}`.trim());
    const judged = kinds.filter((k) => k === '401 invalid_login').length;
    const allowed = (k: string) =>
      k === '401 invalid_login' || k.startsWith('429 ') || FAULT_CODES.has(k.split(' ')[1] ?? '');
    expectThat(
      kinds.every(allowed),
      'failed-auth-limit',
      () => `a storm of ${count} wrong passwords answered ${[...new Set(kinds)].join(', ')}`,
    );
    expectThat(
      judged <= STORM_LIMIT.burst + refilled,
      'failed-auth-limit',
      () =>
        `${count} wrong passwords sent at once from ${address} were judged ${judged} times (401); ` +
        `the failed-authentication limit allows ${STORM_LIMIT.burst}${refilled > 0 ? ` and ${refilled} refilled` : ''}`,
    );
    expectThat(
      this.system.shadow.current.length === lines,
      'refusal-changed-state',
      () => `a storm of wrong passwords wrote ${this.system.shadow.current.length - lines} journal lines`,
    );
  }

  /**
   * A request whose body comes after `meanwhile` was answered (docs/api.md#what-a-reset-ends): when that ended the
   * request's session (a reset, a logout of its token, a clock move past its expiry), the request must answer 401
   * and write nothing, for it was admitted under a session that no longer stands when it acts.
   */
  private async slow(step: Extract<Step, { do: 'slow' }>): Promise<void> {
    if (step.first) {
      const first = this.begin(step.first, false);
      this.judge(first, await this.answered(first));
    }
    let admitted: Promise<boolean> | undefined;
    let ended = false;
    const meanwhile = async () => {
      const other = this.begin(step.meanwhile, false);
      const answer = await this.answered(other);
      ended = endsSession(other, answer, caller);
      this.judge(other, answer);
    };
    const transport: Transport = (no, options) => {
      const slow = this.system.slowHttp(no, options, meanwhile);
      admitted = slow.admitted;
      return slow.answer;
    };
    const prepared = prepare(step, this.resolveContext());
    const caller = prepared.caller;
    // Racing: whatever `meanwhile` did, the request's own answer is judged against the state after it.
    const sent = this.begin(step, true, undefined, prepared, transport);
    const answer = await this.answered(sent);
    if ((await admitted) && ended) {
      const code = errorCode(parsed(answer));
      expectThat(
        answer.status === 401 && (code === 'invalid_credentials' || code === 'token_expired'),
        'ended-session-acted',
        () =>
          `${sent.prepared.method} ${sent.prepared.url} (request #${sent.no}) was admitted before its session ended ` +
          `(${step.meanwhile.call.op} between its head and its body), then answered ${answer.status} ${answer.text.slice(0, 200)}`,
      );
      expectThat(
        this.system.shadow.linesOf(sent.no) === 0,
        'ended-session-acted',
        () => `request #${sent.no} acted after its session ended: ${this.system.shadow.linesOf(sent.no)} journal lines`,
      );
    }
    this.judge(sent, answer);
  }

  /**
   * The process dies `afterTurns` turns after the in-flight requests went out, one a turn (each its own commit):
   * at once, or after living on without its store (every answer then 503 store_unavailable). Then a new process
   * opens the file, and the journal on disk, the state, the streams and the sessions are checked against what
   * the clients were told.
   */
  private async crash(step: Extract<Step, { do: 'crash' }>): Promise<void> {
    this.crashes++;
    const clean = step.inFlight.length === 0 && !step.storeFailure;
    const before = clean ? kernelDigest(this.sandbox.kernel, this.cast) : undefined;
    const linesBefore = this.system.shadow.current.length;
    const racing = step.inFlight.some((c) => this.races(c));
    const inFlight: Array<Sent & { reply: Promise<SimAnswer> }> = [];
    // The moment the log sends an event out is when a crash tests that what was sent was on disk already.
    let killed: Promise<void> | undefined;
    const kill = () => {
      this.subscribers.rememberSent(this.system);
      killed ??= step.storeFailure ? this.liveWithoutStore(inFlight) : this.system.killStore(true);
      return killed;
    };
    const onEvent = step.afterTurns === 'event' ? this.sandbox.streams.events$.subscribe(() => void kill()) : undefined;
    for (const cc of step.inFlight) {
      if (killed) break; // a dead process takes no more requests
      inFlight.push(this.begin(cc, racing));
      await nextTurn();
    }
    for (let turn = 0; turn < (step.afterTurns === 'event' ? EVENT_WAIT_TURNS : step.afterTurns); turn++) {
      if (killed) break;
      await nextTurn();
    }
    onEvent?.unsubscribe();
    await kill();
    // What came before the process died was seen (a failed store's process judges its own, as they come).
    if (!step.storeFailure) for (const sent of inFlight) if (sent.answer) this.judge(sent, sent.answer);
    for (const sent of inFlight) if (!sent.answer || sent.storeFailed) this.unanswered.push(sent);
    this.subscribers.cutAll();
    await this.system.cutOff();
    await this.restart(inFlight, before, clean ? linesBefore : undefined);
  }

  /** The writer thread is gone and the process lives on: every answer, pending or new, is 503 store_unavailable. */
  private async liveWithoutStore(inFlight: Array<Sent & { reply: Promise<SimAnswer> }>): Promise<void> {
    this.model.storeFailed = true;
    await this.system.killStore(false);
    for (const sent of inFlight) if (sent.answer && !sent.storeFailed) this.judge(sent, sent.answer);
    const waiting = inFlight.filter((s) => !s.answer);
    for (const sent of waiting) this.judge(sent, await this.answered(sent));
    const trader = this.plan.clients.findIndex((c) => c.kind === 'trader');
    const probes: ClientCall[] = [
      { client: trader < 0 ? 0 : trader, call: { op: 'login', email: 0 } },
      { client: 0, call: { op: 'read', what: 'orders', ref: 1 }, firm: 0 },
    ];
    for (const cc of probes) {
      const probe = this.begin(cc, false);
      this.judge(probe, await this.answered(probe));
      this.unanswered.push(probe);
    }
  }

  /** A new process on the file: reconciled with what was acknowledged, then checked. */
  private async restart(
    inFlight: readonly Sent[],
    before: ReturnType<typeof kernelDigest> | undefined,
    linesBefore: number | undefined,
  ): Promise<void> {
    this.model.storeFailed = false;
    const acknowledged = this.acknowledged;
    const reconciled = await this.system.restart((no) => acknowledged.has(no));
    expectThat(this.warnings.length === 0, 'restart-differs', () => `the restart warned: ${this.warnings.join('; ')}`);
    if (linesBefore !== undefined)
      expectThat(
        reconciled.length === linesBefore,
        'acknowledged-write-lost',
        () => `a crash with nothing on its way kept ${reconciled.length} of the ${linesBefore} lines written`,
      );
    for (const sent of this.unanswered.sort((a, b) => a.no - b.no))
      if (reconciled.kept.has(sent.no))
        learnUnanswered(sent, { model: this.model, cast: this.cast, startMs: this.startMs });
    const resetHappened = inFlight.some((s) => s.cc.call.op === 'reset' && reconciled.kept.has(s.no));
    this.unanswered = [];
    this.acknowledged = new Set();
    this.outstanding.clear();
    if (before) {
      const difference = digestDifference(before, kernelDigest(this.sandbox.kernel, this.cast));
      expectThat(difference === undefined, 'restart-differs', () => `the restarted sandbox differs: ${difference}`);
    }
    await this.subscribers.afterRestart(this.system, resetHappened);
    await this.checkState();
  }

  /** After every step: nothing waits for the store; aborted requests are settled; a reset still holds. */
  private async afterStep(): Promise<void> {
    await Promise.race([this.system.quiesce(), this.died]);
    for (let turn = 0; turn < 3; turn++) await nextTurn();
    await this.system.quiesce();
    for (const sent of this.unanswered) {
      this.release(sent, true);
      if (this.system.shadow.linesOf(sent.no) > 0)
        learnUnanswered(sent, { model: this.model, cast: this.cast, startMs: this.startMs });
    }
    this.unanswered = [];
    if (this.model.clockAtReset !== undefined)
      expectThat(
        this.sandbox.kernel.nowMs === this.model.clockAtReset,
        'reset',
        () =>
          `a reset was answered and nothing has moved the clock since, but it reads ${this.sandbox.kernel.nowMs}, not the start ${this.model.clockAtReset}`,
      );
  }

  private async checkState(): Promise<void> {
    const kernel = this.sandbox.kernel;
    checkPositionsAndBalances(kernel);
    checkJournalReplay(this.system.shadow.current, kernel, this.sandbox.config.calendar, this.cast);
    await this.subscribers.check(this.system);
  }

  /** A clean stop and a start on the same file: the same state (docs/api.md#persistence). */
  private async cleanRestart(): Promise<void> {
    const before = kernelDigest(this.sandbox.kernel, this.cast);
    this.subscribers.close();
    await this.system.close();
    const acknowledged = this.acknowledged;
    await this.system.restart((no) => acknowledged.has(no));
    const difference = digestDifference(before, kernelDigest(this.sandbox.kernel, this.cast));
    expectThat(
      difference === undefined,
      'restart-differs',
      () => `after a clean stop, the restart differs: ${difference}`,
    );
  }

  /** Marks requests that share an Idempotency-Key and are on their way at the same time. */
  private claim(sent: Sent): void {
    const id = sent.prepared.idempotency?.id;
    if (id === undefined) return;
    const others = this.outstanding.get(id) ?? new Set<Sent>();
    for (const other of others) other.overlapping = sent.overlapping = true;
    others.add(sent);
    this.outstanding.set(id, others);
  }

  /** An abandoned request stays on its way, as far as its key goes, until the step is over (`force`). */
  private release(sent: Sent, force = false): void {
    const id = sent.prepared.idempotency?.id;
    if (id === undefined || (sent.abandoned && !force)) return;
    const others = this.outstanding.get(id);
    others?.delete(sent);
    if (others?.size === 0) this.outstanding.delete(id);
  }
}

/**
 * Of the refreshes and logouts of one session token sent at once, at most one succeeds (docs/api.md#keys-and-login):
 * a token is refreshed once, and not after its logout.
 */
function checkSingleUse(sent: readonly Sent[], answers: readonly SimAnswer[]): void {
  const successes = new Map<object, Sent[]>();
  sent.forEach((s, i) => {
    const caller = s.prepared.caller;
    const op = s.cc.call.op;
    if (caller.kind !== 'user' || (op !== 'refresh' && op !== 'logout') || answers[i]!.status !== 200) return;
    successes.set(caller.token, [...(successes.get(caller.token) ?? []), s]);
  });
  for (const [, used] of successes)
    expectThat(
      used.length <= 1,
      'session',
      () =>
        `one session token was used by ${used.length} requests at once that all succeeded: ` +
        used.map((s) => `${s.cc.call.op} (request #${s.no})`).join(', '),
    );
}

/** How a request goes out: its number and options, its answer. */
type Transport = (no: number, options: Parameters<SimSystem['http']>[1]) => Promise<SimAnswer>;

/** Whether `other`'s answer ended the session `caller` holds: a reset, its logout, a clock move past its expiry. */
function endsSession(other: Sent, answer: SimAnswer, caller: Prepared['caller']): boolean {
  if (caller.kind !== 'user' || answer.status !== 200) return false;
  switch (other.cc.call.op) {
    case 'reset':
      return true;
    case 'logout': {
      const by = other.prepared.caller;
      return by.kind === 'user' && by.token === caller.token;
    }
    case 'advance':
      return ((parsed(answer) as { now_ms?: number } | undefined)?.now_ms ?? 0) >= caller.token.expiresAtMs;
    default:
      return false;
  }
}

function callsOf(step: Step): ClientCall[] {
  switch (step.do) {
    case 'call':
      return [...(step.first ? [step.first] : []), step];
    case 'abort':
      return [step];
    case 'slow':
      return [...(step.first ? [step.first] : []), step, step.meanwhile];
    case 'together':
      return step.calls;
    case 'crash':
      return step.inFlight;
    default:
      return [];
  }
}

function isReplay(answer: SimAnswer): boolean {
  return answer.headers['idempotent-replayed'] === 'true';
}

function isStoreUnavailable(answer: SimAnswer): boolean {
  return answer.status === 503 && errorCode(parsed(answer)) === 'store_unavailable';
}
