// What the clients learn from an answer (docs/api.md#the-simulation): the ids they were given, their sessions, the
// idempotency answers a retry must get again, the fault windows they opened, a reset. And what a request whose
// answer was lost (an abort, a crash) leaves when it took effect anyway: the journal says whether it did.
import { IDEMPOTENCY_TTL_MS } from '../api/sandbox/idempotency.js';
import { errorCode, isUnseenAccount, keptAnswer, parsed, REFUSALS_BEFORE_ACTING, type Sent } from './sim-answers.js';
import type { SimCast } from './sim-clients.js';
import type { SimModel, TokenState } from './sim-model.js';
import type { SimAnswer } from './sim-system.js';

export interface LearnContext {
  model: SimModel;
  cast: SimCast;
  startMs: number;
}

export function learnAnswer(sent: Sent, answer: SimAnswer, ctx: LearnContext): void {
  const { model } = ctx;
  if (sent.storeFailed) return;
  const body = parsed(answer) as Record<string, unknown> | undefined;
  const code = errorCode(body);
  const call = sent.cc.call;
  const idempotency = sent.prepared.idempotency;
  if (idempotency) {
    const first = !replayed(answer) || !model.idempotency.has(idempotency.id); // a replay answered before its original
    // Beside a reset, the answer may have been kept and then forgotten: a later first answer is right too.
    const surely = !sent.racing && !(answer.status === 400 && !replayed(answer));
    const notKept = (code && REFUSALS_BEFORE_ACTING.has(code)) || isUnseenAccount(answer, code);
    if (answer.status < 500 && !notKept && first)
      model.idempotency.set(idempotency.id, {
        fingerprint: idempotency.fingerprint,
        answer: keptAnswer(answer),
        kept: surely ? 'yes' : 'maybe',
        expiresAtMs: sent.nowMs + IDEMPOTENCY_TTL_MS,
      });
  }
  if (answer.status >= 300 || !body) return;
  const caller = sent.prepared.caller;
  switch (call.op) {
    case 'place':
      if (!sent.racing && typeof body.order_id === 'string')
        model.orders[sent.prepared.targetFirm]!.push(body.order_id);
      return;
    case 'oco_link':
      if (!sent.racing && typeof body.oco_group_id === 'string')
        model.groups[sent.prepared.targetFirm]!.push(body.oco_group_id);
      return;
    case 'login':
    case 'refresh':
      learnSession(sent, body, sent.racing ? 'unknown' : 'live', ctx);
      if (call.op === 'refresh' && caller.kind === 'user') caller.token.state = 'revoked';
      return;
    default:
      return learnEffect(sent, ctx, !sent.racing);
  }
}

/** A request whose answer nobody saw, but whose lines reached the journal: it took effect. */
export function learnUnanswered(sent: Sent, ctx: LearnContext): void {
  const idempotency = sent.prepared.idempotency;
  if (idempotency && !ctx.model.idempotency.has(idempotency.id))
    ctx.model.idempotency.set(idempotency.id, {
      fingerprint: idempotency.fingerprint,
      answer: undefined,
      kept: 'yes',
      expiresAtMs: sent.nowMs + IDEMPOTENCY_TTL_MS,
    });
  const caller = sent.prepared.caller;
  if (sent.cc.call.op === 'refresh' && caller.kind === 'user') caller.token.state = 'revoked';
  learnEffect(sent, ctx, false);
}

/**
 * What a logout, a reset, a clock move or a fault window that took effect leaves. `certain`: its answer was seen,
 * and nothing ran at once with it, so the clock and a window's end are known.
 */
function learnEffect(sent: Sent, ctx: LearnContext, certain: boolean): void {
  const { model } = ctx;
  const call = sent.cc.call;
  const caller = sent.prepared.caller;
  switch (call.op) {
    case 'logout':
      if (caller.kind === 'user') caller.token.state = 'revoked';
      return;
    case 'reset':
      model.reset(ctx.startMs);
      if (!certain) model.clockAtReset = undefined;
      return;
    case 'fault':
      if (certain)
        model.faults.push({
          target: call.target,
          status: call.status,
          untilMs: sent.nowMs + call.durationMs,
          pathPrefix: call.pathPrefix,
        });
      else model.faultsUncertain = true;
      return;
    case 'clear_faults':
      model.faults = [];
      model.faultsUncertain = sent.racing;
      return;
    case 'advance':
      model.clockAtReset = undefined;
      return;
    default:
      return;
  }
}

function learnSession(sent: Sent, body: Record<string, unknown>, state: TokenState, ctx: LearnContext): void {
  const user = body.user as { user_id: string; firm_slug: string } | undefined;
  if (typeof body.access_token !== 'string' || !user) return;
  const issuedSeconds = Math.floor(sent.nowMs / 1000);
  ctx.model.addToken(sent.cc.client, {
    token: body.access_token,
    userId: user.user_id,
    firm: ctx.cast.firms.findIndex((f) => f.slug === user.firm_slug),
    expiresAtMs: (issuedSeconds + Number(body.expires_in)) * 1000,
    state,
  });
}

function replayed(answer: SimAnswer): boolean {
  return answer.headers['idempotent-replayed'] === 'true';
}
