// The steps whose requests race (docs/api.md#the-simulation): requests sent at once (first-time answers judged before
// replays, one session token used at most once), a request abandoned after some turns and maybe retried, and a
// request whose body comes after its session ended (docs/api.md#what-a-reset-ends). Apart from the run loop because
// each step kind has checks of its own that hold only for it.
import { errorCode, parsed, type Sent } from './sim-answers.js';
import { expectThat } from './sim-failure.js';
import type { RunRequests, Transport } from './sim-run-requests.js';
import { prepare, type Prepared } from './sim-requests.js';
import type { ClientCall, Step } from './sim-steps.js';
import { nextTurn, type SimAnswer } from './sim-system.js';

/** Requests at once; their answers judged once all are in, first-time answers before replays. */
export async function together(run: RunRequests, calls: readonly ClientCall[]): Promise<void> {
  const racing = calls.length > 1 && calls.some((c) => run.races(c));
  const prepared = calls.map((cc) => prepare(cc, run.resolveContext()));
  const sent = calls.map((cc, i) => run.begin(cc, racing, undefined, prepared[i]));
  const answers = await Promise.all(sent.map((s) => run.answered(s)));
  checkSingleUse(sent, answers);
  const order = sent.map((s, i) => i).sort((a, b) => Number(isReplay(answers[a]!)) - Number(isReplay(answers[b]!)));
  for (const i of order) run.judge(sent[i]!, answers[i]!);
}

/** A request abandoned after some turns (and maybe retried at once); what it did is read from the journal. */
export async function abort(run: RunRequests, step: Extract<Step, { do: 'abort' }>): Promise<void> {
  const controller = new AbortController();
  const prepared = prepare(step, run.resolveContext());
  const sent = run.begin(step, false, controller.signal, prepared, step.via);
  const abandon = () => {
    sent.abandoned = !sent.answer;
    controller.abort();
  };
  const forget = step.afterTurns === 'acted' ? run.system.whenActed(sent.no, abandon) : undefined;
  for (let turn = 0; turn < (step.afterTurns === 'acted' ? 0 : step.afterTurns); turn++) await nextTurn();
  if (!forget) abandon();
  // Answered before it was abandoned, or abandoned: either way it settles (an unanswered one fails the run).
  await run.answered(sent).catch((error: unknown) => {
    if (!sent.abandoned) throw error;
  });
  forget?.();
  if (sent.answer) run.judge(sent, sent.answer);
  else {
    run.unanswered.push(sent);
    // Whether an abandoned logout or refresh ended its session is known only once the journal says so (afterStep).
    const caller = sent.prepared.caller;
    const endsSession = sent.cc.call.op === 'logout' || sent.cc.call.op === 'refresh';
    if (endsSession && caller.kind === 'user' && caller.token.state === 'live') caller.token.state = 'unknown';
  }
  if (step.retry) {
    const retry = run.begin(step, false, undefined, prepared);
    run.judge(retry, await run.answered(retry));
  }
}

/**
 * A request whose body comes after `meanwhile` was answered (docs/api.md#what-a-reset-ends): when that ended the
 * request's session (a reset, a logout of its token, a clock move past its expiry), the request must answer 401
 * and write nothing, for it was admitted under a session that no longer stands when it acts.
 */
export async function slow(run: RunRequests, step: Extract<Step, { do: 'slow' }>): Promise<void> {
  if (step.first) {
    const first = run.begin(step.first, false);
    run.judge(first, await run.answered(first));
  }
  let admitted: Promise<boolean> | undefined;
  let ended = false;
  const meanwhile = async () => {
    const other = run.begin(step.meanwhile, false);
    const answer = await run.answered(other);
    ended = endsSession(other, answer, caller);
    run.judge(other, answer);
  };
  const transport: Transport = (no, options) => {
    const slow = run.system.slowHttp(no, options, meanwhile);
    admitted = slow.admitted;
    return slow.answer;
  };
  const prepared = prepare(step, run.resolveContext());
  const caller = prepared.caller;
  // Racing: whatever `meanwhile` did, the request's own answer is judged against the state after it.
  const sent = run.begin(step, true, undefined, prepared, transport);
  const answer = await run.answered(sent);
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
      run.system.shadow.linesOf(sent.no) === 0,
      'ended-session-acted',
      () => `request #${sent.no} acted after its session ended: ${run.system.shadow.linesOf(sent.no)} journal lines`,
    );
  }
  run.judge(sent, answer);
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

function isReplay(answer: SimAnswer): boolean {
  return answer.headers['idempotent-replayed'] === 'true';
}
