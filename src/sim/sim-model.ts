// What the simulation's clients know, built from the answers they got (docs/api.md#the-simulation): the orders and
// OCO groups each firm was told about, each trader's session tokens and whether they still stand, the idempotency
// answers a retry must get again, and the fault windows open. The checks compare each new answer with it; a reset
// answered 200 ends it all, as docs/api.md#sandbox-control says.
import type { FaultStatus, FaultTarget } from '../api/sandbox/fault-windows.js';

/** live: usable; revoked: by logout or refresh; ended: issued before a reset; unknown: raced a reset or a crash. */
export type TokenState = 'live' | 'revoked' | 'ended' | 'unknown';

export interface TokenRecord {
  token: string;
  userId: string;
  firm: number;
  /** The simulated time its `exp` names. */
  expiresAtMs: number;
  state: TokenState;
}

/** An answer as a retry must get it again: its status and body (an error's without its request_id). */
export interface KeptAnswer {
  status: number;
  body: string;
}

export interface IdempotencyRecord {
  fingerprint: string;
  /** The answer the key stands for; undefined when the request took effect but its answer was lost (a crash). */
  answer: KeptAnswer | undefined;
  /** yes: the sandbox keeps it; maybe: a 400 that the gateway (not kept) or the handler (kept) gave. */
  kept: 'yes' | 'maybe';
  expiresAtMs: number;
}

export interface FaultRecord {
  target: FaultTarget;
  status: FaultStatus;
  untilMs: number;
  pathPrefix: string | undefined;
}

export class SimModel {
  /** Order and OCO group ids each firm was answered, oldest first. */
  orders: string[][] = [];
  groups: string[][] = [];
  /** Each client's session tokens, oldest first. */
  readonly tokens = new Map<number, TokenRecord[]>();
  /** By `${scope}\0${key}`: a firm's slug, or `platform` for an admin naming none. */
  readonly idempotency = new Map<string, IdempotencyRecord>();
  faults: FaultRecord[] = [];
  /** A window may be open that the clients cannot know the end of (opened by a request that raced or was cut). */
  faultsUncertain = false;
  /** Set by a reset answered 200 until the clock is moved: the kernel must stay at the start (a reset holds). */
  clockAtReset: number | undefined;
  /** The writer thread is gone and the process lives on: every answer must be 503 store_unavailable. */
  storeFailed = false;

  constructor(private readonly firmCount: number) {
    this.forgetIds();
  }

  /** A reset took effect: a new kernel, no idempotency answers, no faults, and every session before it ended. */
  reset(startMs: number): void {
    this.forgetIds();
    this.idempotency.clear();
    this.faults = [];
    this.faultsUncertain = false;
    for (const tokens of this.tokens.values())
      for (const token of tokens) if (token.state === 'live') token.state = 'ended';
    this.clockAtReset = startMs;
  }

  /** What a reset that may or may not have happened leaves: nothing the clients can count on. */
  resetMaybe(): void {
    this.forgetIds();
    this.idempotency.clear();
    this.faultsUncertain = true;
    for (const tokens of this.tokens.values())
      for (const token of tokens) if (token.state === 'live') token.state = 'unknown';
    this.clockAtReset = undefined;
  }

  forgetIds(): void {
    this.orders = Array.from({ length: this.firmCount }, () => []);
    this.groups = Array.from({ length: this.firmCount }, () => []);
  }

  /** A client's `back`-th newest token (0: the newest). */
  token(client: number, back: number): TokenRecord | undefined {
    const tokens = this.tokens.get(client) ?? [];
    return tokens[tokens.length - 1 - back];
  }

  addToken(client: number, token: TokenRecord): void {
    const tokens = this.tokens.get(client) ?? [];
    tokens.push(token);
    if (tokens.length > 6) tokens.shift();
    this.tokens.set(client, tokens);
  }

  /** The open windows (oldest first, as the gateway tries them) at `nowMs`. */
  openFaults(nowMs: number): FaultRecord[] {
    return this.faults.filter((f) => f.untilMs > nowMs);
  }
}

export function idempotencyId(scope: string, key: string): string {
  return `${scope}\u0000${key}`;
}
