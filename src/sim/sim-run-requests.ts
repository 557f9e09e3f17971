// The state one simulation run shares between its kinds of steps (docs/api.md#the-simulation), and how a request is
// sent, awaited and judged: every step kind (sim-run-races.ts, sim-run-storm.ts, sim-run-crash.ts) sends its
// requests through begin(), waits for them with answered() and checks them with judge(), so what was acknowledged,
// what went unanswered and which requests share an Idempotency-Key is kept in one place.
import type { Sandbox } from '../api/sandbox/sandbox.js';
import { checkAnswer } from './sim-answer-checks.js';
import { errorCode, parsed, type Sent } from './sim-answers.js';
import { castOf, type SimCast } from './sim-clients.js';
import { InvariantFailure } from './sim-failure.js';
import { learnAnswer } from './sim-learn.js';
import { SimModel } from './sim-model.js';
import { OwnershipIndex } from './sim-ownership.js';
import { simSeed, type SimPlan } from './sim-plan.js';
import { prepare, type Prepared } from './sim-requests.js';
import { checkJournalReplay, checkPositionsAndBalances } from './sim-state-checks.js';
import type { Call, ClientCall } from './sim-steps.js';
import { Subscribers } from './sim-subscribers.js';
import type { SimAnswer, SimHooks, SimSystem } from './sim-system.js';

/** What a run is given: where its file goes, its hooks, how long a request may take. */
export interface RunOptions {
  /** Where the run's SQLite file goes (a fresh folder in it, removed after a run that passed). */
  dbDir: string;
  hooks?: SimHooks;
  /** How long a request may go unanswered (wall time) before the run fails with `unanswered`. */
  requestTimeoutMs?: number;
}

/** Sandbox control that moves the clock, resets or opens windows: what runs at once with it is uncertain. */
const CONTROL_OPS: ReadonlySet<Call['op']> = new Set(['advance', 'reset', 'fault', 'clear_faults']);
/** Session changes: a request at once with one may find the session before or after it. */
const SESSION_OPS: ReadonlySet<Call['op']> = new Set(['login', 'logout', 'refresh']);

/** How a request goes out: its number and options, its answer. */
export type Transport = (no: number, options: Parameters<SimSystem['http']>[1]) => Promise<SimAnswer>;

/** A run's shared state and its requests; SimRun (sim-run.ts) adds the loop over the steps. */
export class RunRequests {
  readonly cast: SimCast = castOf(simSeed());
  readonly model: SimModel;
  readonly ownership: OwnershipIndex;
  readonly subscribers: Subscribers;
  system!: SimSystem;
  /** Requests of this process answered before it died: what the journal on disk must keep. */
  acknowledged = new Set<number>();
  /** Requests whose answer nobody saw (aborted, or on their way at a crash). */
  unanswered: Sent[] = [];
  /** Requests on their way, by idempotency id: a second one with the key may be told it is in progress. */
  readonly outstanding = new Map<string, Set<Sent>>();
  readonly warnings: string[] = [];
  /** Rejects once an error escapes the app: whatever the run waits for, it stops there. */
  readonly died: Promise<never>;
  private die!: (failure: InvariantFailure) => void;
  private readonly timeoutMs: number;
  step = 0;
  stepsRun = 0;
  requests = 0;
  /** Storms so far: each comes from an address of its own. */
  storms = 0;
  crashes = 0;
  readonly answers: Record<string, number> = {};

  constructor(
    readonly plan: SimPlan,
    readonly file: string,
    protected readonly options: RunOptions,
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

  get sandbox(): Sandbox {
    return this.system.sandbox;
  }

  get startMs(): number {
    return this.sandbox.config.startMs;
  }

  /** Whether a request makes what runs at once with it uncertain: sandbox control by an admin, a session change. */
  races(cc: ClientCall): boolean {
    const admin = this.plan.clients[cc.client]?.kind === 'admin';
    return (admin && CONTROL_OPS.has(cc.call.op)) || SESSION_OPS.has(cc.call.op);
  }

  /** Prepares and sends one request; its answer is awaited by whoever needs it. */
  begin(
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

  resolveContext() {
    return { cast: this.cast, clients: this.plan.clients, model: this.model, kernel: this.sandbox.kernel };
  }

  /** Its answer, within the timeout: a request never answered is a broken invariant. */
  async answered(sent: Sent & { reply: Promise<SimAnswer> }): Promise<SimAnswer> {
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
  judge(sent: Sent, answer: SimAnswer): void {
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

  async checkState(): Promise<void> {
    const kernel = this.sandbox.kernel;
    checkPositionsAndBalances(kernel);
    checkJournalReplay(this.system.shadow.current, kernel, this.sandbox.config.calendar, this.cast);
    await this.subscribers.check(this.system);
  }

  /** Marks requests that share an Idempotency-Key and are on their way at the same time. */
  claim(sent: Sent): void {
    const id = sent.prepared.idempotency?.id;
    if (id === undefined) return;
    const others = this.outstanding.get(id) ?? new Set<Sent>();
    for (const other of others) other.overlapping = sent.overlapping = true;
    others.add(sent);
    this.outstanding.set(id, others);
  }

  /** An abandoned request stays on its way, as far as its key goes, until the step is over (`force`). */
  release(sent: Sent, force = false): void {
    const id = sent.prepared.idempotency?.id;
    if (id === undefined || (sent.abandoned && !force)) return;
    const others = this.outstanding.get(id);
    others?.delete(sent);
    if (others?.size === 0) this.outstanding.delete(id);
  }
}

function isStoreUnavailable(answer: SimAnswer): boolean {
  return answer.status === 503 && errorCode(parsed(answer)) === 'store_unavailable';
}
