// The invariants of each answer (docs/api.md#the-simulation), checked as it comes: no 5xx but the documented ones;
// every refusal in the error envelope, and one made before the handler changes nothing; no id of another firm (or,
// for a trader, of another user); a retry with an Idempotency-Key gets the first answer again; a session ended by
// logout, refresh or reset stays ended; fault windows answer while open, and only then.
import type { SimAnswer } from './sim-system.js';
import { expectThat } from './sim-failure.js';
import type { SimModel } from './sim-model.js';
import type { OwnershipIndex } from './sim-ownership.js';
import { errorCode, FAULT_CODES, MARGIN_MS, parsed, REFUSALS_BEFORE_ACTING, type Sent } from './sim-answers.js';
import { checkIdempotency } from './sim-idempotency-check.js';

/** A session that is over answers one of these (docs/api.md#keys-and-login). */
const ENDED_SESSION_CODES: ReadonlySet<string> = new Set(['invalid_credentials', 'session_ended', 'token_expired']);
/** Ids in a body that are not the sandbox's records: request ids, fault ids, staff role ids. */
const NOT_RECORD_IDS: ReadonlySet<string> = new Set(['request_id', 'fault_id', 'role_id']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface CheckContext {
  model: SimModel;
  ownership: OwnershipIndex;
  /** Journal lines request `no` wrote. */
  linesOf(no: number): number;
  startMs: number;
}

export function checkAnswer(sent: Sent, answer: SimAnswer, ctx: CheckContext): void {
  const body = parsed(answer);
  const code = errorCode(body);
  const where = `${sent.prepared.method} ${sent.prepared.url} (request #${sent.no})`;
  checkStatus(sent, answer, code, where);
  if (sent.storeFailed) return; // every answer is the same 503 then, whatever else holds
  if (code === 'rate_limited') checkRetryAfter(answer, where);
  if (answer.status >= 400) checkEnvelope(body, where, answer);
  if (answer.status >= 400) checkEcho(body, where, answer);
  if (code !== undefined && REFUSALS_BEFORE_ACTING.has(code))
    expectThat(
      ctx.linesOf(sent.no) === 0,
      'refusal-changed-state',
      () => `${where} was refused (${answer.status} ${code}) but wrote ${ctx.linesOf(sent.no)} journal lines`,
    );
  if (answer.status >= 400)
    expectThat(
      answer.headers['set-cookie'] === undefined,
      'store-unavailable',
      () => `${where} answered ${answer.status} ${code} and set a cookie: ${String(answer.headers['set-cookie'])}`,
    );
  if (!sent.racing) checkOwnership(sent, body, where, ctx.ownership);
  checkSession(sent, answer, code, where);
  if (!sent.racing) checkFaults(sent, answer, code, where, ctx.model);
  if (sent.prepared.idempotency) checkIdempotency(sent, answer, code, where, ctx.model);
  if (sent.cc.call.op === 'reset' && answer.status === 200)
    expectThat(
      (body as { now_ms?: number }).now_ms === ctx.startMs,
      'reset',
      () => `a reset answered the clock at ${(body as { now_ms?: number }).now_ms}, not the start ${ctx.startMs}`,
    );
}

function checkStatus(sent: Sent, answer: SimAnswer, code: string | undefined, where: string): void {
  if (sent.storeFailed) {
    expectThat(
      answer.status === 503 && code === 'store_unavailable',
      'store-unavailable',
      () => `the store has failed, but ${where} answered ${answer.status} ${code ?? ''}: ${answer.text.slice(0, 200)}`,
    );
    // Nothing the handler meant for a kept answer goes out with it (docs/api.md#persistence).
    for (const header of ['idempotent-replayed', 'set-cookie'])
      expectThat(
        answer.headers[header] === undefined,
        'store-unavailable',
        () => `${where} answered 503 store_unavailable with the handler's ${header}: ${String(answer.headers[header])}`,
      );
    return;
  }
  if (answer.status < 500) return;
  const injected = (answer.status === 503 && code === 'risk_loading') || (code !== undefined && FAULT_CODES.has(code));
  expectThat(injected, 'unexpected-5xx', () => `${where} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
}

/** A 429 says when to come back: Retry-After in whole seconds, at least 1 (docs/api.md#rate-limits). */
function checkRetryAfter(answer: SimAnswer, where: string): void {
  const seconds = Number(answer.headers['retry-after']);
  expectThat(
    Number.isInteger(seconds) && seconds >= 1,
    'error-envelope',
    () => `${where} answered 429 with Retry-After ${String(answer.headers['retry-after'])}`,
  );
}

function checkEnvelope(body: unknown, where: string, answer: SimAnswer): void {
  const envelope = body as Record<string, unknown> | undefined;
  expectThat(
    typeof envelope === 'object' &&
      envelope !== null &&
      Object.keys(envelope)[0] === 'error' &&
      typeof envelope.code === 'string' &&
      typeof envelope.request_id === 'string',
    'error-envelope',
    () => `${where} answered ${answer.status} outside the error envelope: ${answer.text.slice(0, 200)}`,
  );
}

/** The longest error answer (docs/api.md#what-an-error-echoes: 20 details of bounded echoes, with the message). */
const MAX_ERROR_ANSWER_CHARS = 16 * 1024;
/** What an error message never carries: control characters and U+FFFD, the mark of bytes that were not UTF-8. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\ufffd]/;

/** An error answer is small, whatever the body was, and its messages carry nothing a reader cannot see. */
function checkEcho(body: unknown, where: string, answer: SimAnswer): void {
  expectThat(
    answer.text.length <= MAX_ERROR_ANSWER_CHARS,
    'error-echo',
    () => `${where} answered ${answer.status} with ${answer.text.length} characters: ${answer.text.slice(0, 200)}…`,
  );
  const envelope = body as { error?: unknown; details?: Array<{ field?: unknown; message?: unknown }> };
  const texts = [envelope.error, ...(envelope.details ?? []).flatMap((d) => [d.field, d.message])];
  const unseen = texts.find((text) => typeof text === 'string' && UNSEEN.test(text));
  expectThat(
    unseen === undefined,
    'error-echo',
    () => `${where} answered ${answer.status} with a control character or U+FFFD: ${JSON.stringify(unseen)}`,
  );
}

/** Every id in the body is of the caller's firm, and for a trader of its own accounts (docs/api.md#the-auth-matrix). */
function checkOwnership(sent: Sent, body: unknown, where: string, ownership: OwnershipIndex): void {
  const caller = sent.prepared.caller;
  if (caller.kind === 'anonymous' || (caller.kind === 'admin' && caller.firm === undefined)) return;
  if (/^\/v1\/sandbox\//.test(sent.prepared.url)) return; // sandbox control acts on the whole sandbox
  const firm = caller.kind === 'admin' ? caller.firm! : caller.firm;
  const user = caller.kind === 'user' ? caller.token.userId : undefined;
  for (const [key, id] of idsIn(body)) {
    const owner = ownership.ownerOf(id);
    if (!owner) continue;
    expectThat(
      owner.firm === firm && (user === undefined || owner.user === undefined || owner.user === user),
      'foreign-id',
      () =>
        `${where}: the answer names ${key} ${id} of firm #${owner.firm}${owner.user ? ` user ${owner.user}` : ''}, ` +
        `to a caller of firm #${firm}${user ? ` user ${user}` : ''}`,
    );
  }
}

function checkSession(sent: Sent, answer: SimAnswer, code: string | undefined, where: string): void {
  const caller = sent.prepared.caller;
  if (caller.kind !== 'user' || sent.racing) return;
  if (isFaultAnswer(code, answer)) return; // a gateway window answers before credentials are read
  const token = caller.token;
  const expiresInMs = token.expiresAtMs - sent.nowMs;
  if (token.state === 'unknown' || Math.abs(expiresInMs) < MARGIN_MS) return;
  if (token.state === 'live' && expiresInMs > 0) {
    expectThat(
      answer.status !== 401,
      'session',
      () => `a live session (${describe(token)}) was refused: ${where} answered 401 ${code}`,
    );
    return;
  }
  const why = expiresInMs <= 0 ? 'expired' : token.state === 'ended' ? 'issued before a reset' : 'revoked';
  expectThat(
    answer.status === 401 && code !== undefined && ENDED_SESSION_CODES.has(code),
    'session',
    () =>
      `a session ${why} (${describe(token)}) was not refused with 401: ${where} answered ${answer.status} ${answer.text.slice(0, 200)}`,
  );
}

/** A fault window's answer (its 429 says so: a caller's own rate limit answers the same code). */
function isFaultAnswer(code: string | undefined, answer: SimAnswer): boolean {
  return (code !== undefined && FAULT_CODES.has(code)) || (code === 'rate_limited' && /fault window/.test(answer.text));
}

function describe(token: { userId: string; expiresAtMs: number }): string {
  return `user ${token.userId}, expiring at ${token.expiresAtMs}`;
}

function checkFaults(sent: Sent, answer: SimAnswer, code: string | undefined, where: string, model: SimModel): void {
  const path = sent.prepared.url.split('?')[0]!;
  if (model.faultsUncertain || path.startsWith('/v1/sandbox/')) return;
  const open = model.openFaults(sent.nowMs + MARGIN_MS);
  const closing = model.faults.filter((f) => Math.abs(f.untilMs - sent.nowMs) <= MARGIN_MS);
  if (closing.length > 0) return;
  const fault = isFaultAnswer(code, answer);
  const matches = open.filter((f) => f.pathPrefix === undefined || path.startsWith(f.pathPrefix));
  if (fault) {
    expectThat(
      matches.some((f) => f.status === answer.status),
      'fault-window',
      () => `${where} answered a fault (${answer.status} ${code}) with no window of that status open over it`,
    );
    return;
  }
  const gateway = matches.find((f) => f.target === 'gateway');
  expectThat(
    gateway === undefined,
    'fault-window',
    () =>
      `${where} answered ${answer.status} ${code ?? ''} while a gateway window (${gateway!.status}) was open over it`,
  );
  const downstream = answer.status < 300 ? matches.find((f) => f.target === targetOf(path)) : undefined;
  expectThat(
    downstream === undefined,
    'fault-window',
    () =>
      `${where} answered ${answer.status} while a ${downstream!.target} window (${downstream!.status}) was open over it`,
  );
}

/** The downstream service of a path (docs/api.md#fault-windows). */
function targetOf(path: string): string | undefined {
  if (/\/risk-state$/.test(path)) return 'risk';
  if (/^\/v1\/(orders|fills|trades|positions|stats)(\/|$)|^\/v1\/accounts\/[^/]+\/positions/.test(path))
    return 'trading';
  if (path.startsWith('/v1/balances')) return 'balances';
  if (/^\/v1\/firm-control\/|^\/v1\/admin\/|^\/v1\/accounts\/[^/]+\/(lockout|flatten|orders\/cancel)$/.test(path))
    return 'accounts';
  return undefined;
}

/** Every [key, uuid] pair in a JSON value, but for the ids that name no record of a firm. */
function idsIn(value: unknown, key = ''): Array<[string, string]> {
  if (typeof value === 'string') return UUID.test(value) && !NOT_RECORD_IDS.has(key) ? [[key, value]] : [];
  if (Array.isArray(value)) return value.flatMap((v) => idsIn(v, key));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => idsIn(v, k));
  return [];
}
