// The system the simulation drives (docs/api.md#the-simulation): the real Fastify app over a sandbox kept in a
// SQLite file, listening on a loopback port for the WebSocket subscribers while requests go through inject. A
// crash is what a kill does: the store's writer thread is terminated without a close (a commit under way is rolled
// back), the sockets are cut, the app and sandbox are abandoned, and a new sandbox opens the file.
import { AsyncLocalStorage } from 'node:async_hooks';
import { request as httpRequest, type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../api/app.js';
import { RealtimeClock } from '../api/sandbox/realtime-clock.js';
import { Sandbox, type SandboxConfig } from '../api/sandbox/sandbox.js';
import { SandboxDb } from '../store/sandbox-db.js';
import { ShadowJournal, type Reconciled } from './sim-shadow.js';

/** Test-only ways into the system: a planted bug, or a wrapped dependency (test/sim/). */
export interface SimHooks {
  /** Called with each app built (at the start and at every restart), before it listens. */
  afterBuild?(app: FastifyInstance, sandbox: Sandbox): void;
}

export interface SimAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  text: string;
}

/** The header that carries a request's number over a real connection. */
const REQUEST_HEADER = 'x-sim-request';

/** The realtime clock's speed, simulated ms per wall ms. */
const REALTIME_SPEED = 60;

export class SimSystem {
  readonly shadow = new ShadowJournal();
  /** The request each journal line is written for, across the async steps of its handling. */
  private readonly requestContext = new AsyncLocalStorage<number>();
  /** Grows at each crash: an answer that comes after the crash it was sent before is one nobody saw. */
  epoch = 0;
  /** The virtual wall of the realtime clock, in ms: it moves only at `wall` steps. */
  private wallMs = 0;
  private realtime: RealtimeClock | undefined;
  private db!: SandboxDb;
  /** Whether the store's lines still count: a dead process's late lines never reach the disk. */
  private storeAlive = { alive: true };
  sandbox!: Sandbox;
  app!: FastifyInstance;
  /** host:port of the listener the subscribers connect to. */
  address = '';
  private retired = false;
  /** Called once when a request writes its first journal line (an abort timed to land while it waits to commit). */
  private readonly onFirstLine = new Map<number, () => void>();
  /** The app that storms go to, built for the sandbox it serves (a restart makes a new one). */
  private stormApp: { sandbox: Sandbox; app: FastifyInstance } | undefined;
  /** Called once when a request over the listener has passed the gateway's onRequest hooks (a slow body's cue). */
  private readonly onAdmitted = new Map<number, () => void>();

  private constructor(
    readonly file: string,
    private readonly config: SandboxConfig,
    private readonly hooks: SimHooks,
  ) {}

  static async start(file: string, config: SandboxConfig, hooks: SimHooks = {}): Promise<SimSystem> {
    const system = new SimSystem(file, config, hooks);
    await system.open();
    return system;
  }

  /** Sends one request as request `no`: the lines its handling writes are tagged with it. */
  inject(no: number, options: InjectOptions): Promise<SimAnswer> {
    return this.requestContext.run(no, async () => {
      const response = await this.app.inject(options);
      return { status: response.statusCode, headers: response.headers, text: response.body };
    });
  }

  /**
   * Calls `then` once request `no` has written its first journal line: it acted, and its answer waits to commit.
   * Returns what forgets it (a request that never acts).
   */
  whenActed(no: number, then: () => void): () => void {
    this.onFirstLine.set(no, then);
    return () => this.onFirstLine.delete(no);
  }

  /**
   * Sends one request as request `no` over a real loopback connection (an abort cuts the socket, as a client that
   * gives up does); its handling is tagged with `no` by the header the system's own hook reads.
   */
  http(no: number, options: InjectOptions & { signal?: AbortSignal }): Promise<SimAnswer> {
    const payload =
      typeof options.payload === 'string' || Buffer.isBuffer(options.payload) ? options.payload : undefined;
    const { request, answer } = this.loopback(no, options, payload, options.signal);
    request.end(payload);
    return answer;
  }

  /**
   * Sends request `no` over a real loopback connection with half its body, waits until the gateway has admitted it
   * (or answered it), runs `meanwhile`, then sends the rest of the body: a reset, a logout or a clock move lands
   * between a request's credentials check and its handler (docs/api.md#what-a-reset-ends). `admitted` says whether
   * the request was still waiting for its body when `meanwhile` ran.
   */
  slowHttp(
    no: number,
    options: InjectOptions,
    meanwhile: () => Promise<void>,
  ): { answer: Promise<SimAnswer>; admitted: Promise<boolean> } {
    const payload = typeof options.payload === 'string' ? options.payload : '';
    const half = Math.floor(payload.length / 2);
    let cue!: (admitted: boolean) => void;
    const admitted = new Promise<boolean>((settle) => (cue = settle));
    this.onAdmitted.set(no, () => cue(true));
    const { request, answer } = this.loopback(no, options, payload);
    void answer.then(
      () => cue(false), // answered before its body came: refused by the gateway
      () => cue(false),
    );
    request.write(payload.slice(0, half));
    const ended = admitted.then(async (inTime) => {
      this.onAdmitted.delete(no);
      await meanwhile();
      if (inTime) request.end(payload.slice(half));
      else request.destroy(); // answered already: the rest of its body would go nowhere
    });
    return { answer: ended.then(() => answer), admitted };
  }

  /** Request `no` over a loopback connection, its head sent; its answer once all of it has come. */
  private loopback(
    no: number,
    options: InjectOptions,
    payload: string | Buffer | undefined,
    signal?: AbortSignal,
  ): { request: ClientRequest; answer: Promise<SimAnswer> } {
    const [host, port] = this.address.split(':');
    let request!: ClientRequest;
    const answer = new Promise<SimAnswer>((answered, failed) => {
      request = httpRequest(
        {
          host,
          port: Number(port),
          method: options.method,
          path: options.url as string,
          headers: {
            ...(options.headers as Record<string, string>),
            [REQUEST_HEADER]: String(no),
            ...(payload === undefined ? {} : { 'content-length': Buffer.byteLength(payload) }),
          },
          ...(signal ? { signal } : {}),
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => answered({ status: response.statusCode ?? 0, headers: response.headers, text }));
          response.on('error', failed);
        },
      );
      request.on('error', failed);
    });
    return { request, answer };
  }

  /**
   * Sends `requests` at once through an app of this sandbox whose failed-authentication limit is `limit` (the
   * system's own app has it lifted: the rogue fails on purpose), each from `remoteAddress`.
   */
  async storm(
    requests: readonly InjectOptions[],
    limit: { perSecond: number; burst: number },
    remoteAddress: string,
  ): Promise<SimAnswer[]> {
    if (this.stormApp?.sandbox !== this.sandbox)
      this.stormApp = { sandbox: this.sandbox, app: await buildApp({ sandbox: this.sandbox, failedAuthLimit: limit }) };
    const app = this.stormApp.app;
    const answers = await Promise.all(requests.map((request) => app.inject({ ...request, remoteAddress })));
    return answers.map((a) => ({ status: a.statusCode, headers: a.headers, text: a.body }));
  }

  /** Settles once nothing waits for the store (or the store has failed). */
  async quiesce(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const durable = this.sandbox.durable();
      if (!durable) {
        await nextTurn();
        if (!this.sandbox.durable()) return;
        continue;
      }
      if (
        !(await durable.then(
          () => true,
          () => false,
        ))
      )
        return;
    }
  }

  /** The simulated time a request sent now is handled at: with a realtime clock, where the wall has taken it. */
  nowMs(): number {
    return this.realtime?.nowMs() ?? this.sandbox.kernel.nowMs;
  }

  /** The realtime clock's wall moves on; the kernel follows if something falls due. */
  async passWall(ms: number): Promise<void> {
    this.wallMs += ms;
    await this.realtime?.step();
  }

  /**
   * The store dies: its writer thread is terminated without a close, so nothing more reaches the disk (a commit
   * under way is rolled back). When the process dies with it, no answer from now on is seen; else the app lives on
   * without its store, as after a failed disk, until `cutOff`.
   */
  async killStore(processDies: boolean): Promise<void> {
    if (processDies) this.epoch++;
    this.storeAlive.alive = false;
    // The store's own handle (sandbox-db.ts): a killed process closes nothing, so neither does this. A store that
    // has not written since it opened hands the file to its writer first, or the next write would start a new one.
    const store = this.db as unknown as { writer?: Worker };
    if (!store.writer) this.db.startWriting();
    await store.writer?.terminate();
  }

  /** The sockets of the dead process are cut, and nothing it answers from now on counts. */
  async cutOff(): Promise<void> {
    this.epoch++;
    this.realtime?.stop();
    this.app.server.closeAllConnections();
    for (const client of this.app.websocketServer?.clients ?? []) client.terminate();
    await new Promise<void>((closed) => this.app.server.close(() => closed()));
  }

  /**
   * A new process on the file: the journal on disk is reconciled with the lines written (`acknowledged` says which
   * requests were answered), then the sandbox restarts from it.
   */
  async restart(acknowledged: (request: number) => boolean): Promise<Reconciled> {
    const db = SandboxDb.open(this.file);
    const stored = [...db.lines()];
    const reconciled = this.shadow.reconcile(stored, acknowledged);
    this.shadow.restartFrom(stored);
    await this.open(db);
    return reconciled;
  }

  /**
   * Done with: a failed run's system is killed, and a restart still on its way (the run stopped waiting for it)
   * closes what it opens.
   */
  async retire(): Promise<void> {
    this.retired = true;
    await this.killStore(true);
    await this.cutOff();
  }

  /** A clean stop: the last commit, a snapshot, the file closed. */
  async close(): Promise<void> {
    await this.stormApp?.app.close();
    this.stormApp = undefined;
    await this.app.close();
    await this.sandbox.close();
  }

  private async open(existing?: SandboxDb): Promise<void> {
    this.db = existing ?? SandboxDb.open(this.file);
    this.tapStore(this.db);
    this.sandbox = await Sandbox.start(this.config, this.db);
    this.realtime =
      this.config.clockMode === 'realtime'
        ? new RealtimeClock(
            this.sandbox,
            REALTIME_SPEED,
            (error) => {
              throw error;
            },
            () => this.wallMs,
          )
        : undefined;
    // The clock's catch-up before a request is the clock's, not the request's: its lines are tagged with none.
    const clock = this.realtime;
    const realtime = clock && { catchUp: () => this.requestContext.exit(() => clock.catchUp()) };
    this.app = await buildApp({ sandbox: this.sandbox, ...(realtime ? { realtime } : {}) });
    this.tagHttpRequests(this.app);
    this.hooks.afterBuild?.(this.app, this.sandbox);
    await this.app.listen({ port: 0, host: '127.0.0.1' });
    this.address = `127.0.0.1:${(this.app.server.address() as AddressInfo).port}`;
    if (this.retired) await this.retire();
  }

  /** A request that came over the listener names its number in a header: its handler runs tagged with it. */
  private tagHttpRequests(app: FastifyInstance): void {
    // Added after the gateway's own: a request that reaches it has been admitted.
    app.addHook('onRequest', (request, _reply, done) => {
      const admitted = this.onAdmitted.get(Number(request.headers[REQUEST_HEADER]));
      admitted?.();
      done();
    });
    app.addHook('preHandler', (request, _reply, done) => {
      const no = Number(request.headers[REQUEST_HEADER]);
      if (Number.isInteger(no) && no > 0) this.requestContext.run(no, done);
      else done();
    });
  }

  /** Every line the sandbox hands its store goes to the shadow journal too, tagged with its request. */
  private tapStore(db: SandboxDb): void {
    const append = db.append.bind(db);
    const startOver = db.startOver.bind(db);
    const tap = (this.storeAlive = { alive: true });
    db.append = (line) => {
      const request = this.requestContext.getStore();
      if (tap.alive) this.shadow.append(line, request);
      append(line);
      const acted = request === undefined ? undefined : this.onFirstLine.get(request);
      if (acted) {
        this.onFirstLine.delete(request!);
        queueMicrotask(acted); // once the handler's own synchronous work is done
      }
    };
    db.startOver = (meta) => {
      if (tap.alive) this.shadow.startOver();
      startOver(meta);
    };
  }
}

export function nextTurn(): Promise<void> {
  return new Promise((turned) => setImmediate(turned));
}
