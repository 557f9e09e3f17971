// The idempotency invariant (docs/api.md#idempotency), checked on each answer to a request that sent an
// Idempotency-Key: the same key and body answer the first answer again; another body is refused.
import type { SimAnswer } from './sim-system.js';
import { expectThat } from './sim-failure.js';
import type { SimModel } from './sim-model.js';
import { isUnseenAccount, keptAnswer, MARGIN_MS, REFUSALS_BEFORE_ACTING, type Sent } from './sim-answers.js';

/** docs/api.md#idempotency: the same key and body answer the first answer again; another body is refused. */
export function checkIdempotency(
  sent: Sent,
  answer: SimAnswer,
  code: string | undefined,
  where: string,
  model: SimModel,
): void {
  const { id, key, fingerprint } = sent.prepared.idempotency!;
  if (sent.racing) return;
  let record = model.idempotency.get(id);
  if (record && record.expiresAtMs - MARGIN_MS <= sent.nowMs) {
    if (record.expiresAtMs + MARGIN_MS > sent.nowMs) return; // expiring now: either answer is right
    model.idempotency.delete(id);
    record = undefined;
  }
  const replayed = answer.headers['idempotent-replayed'] === 'true';
  if (code === 'idempotency_request_in_progress') {
    expectThat(
      sent.overlapping,
      'idempotency-in-progress',
      () =>
        `${where} with Idempotency-Key ${key} answered 409 in progress, but no other request with the key was on its way`,
    );
    return;
  }
  if (code === 'idempotency_key_reused') {
    expectThat(
      record !== undefined && record.fingerprint !== fingerprint,
      'idempotent-replay',
      () =>
        `${where}: Idempotency-Key ${key} was refused as reused with another body, but ${record ? 'its first use had this body' : 'the key was not used before'}`,
    );
    return;
  }
  if (code !== undefined && REFUSALS_BEFORE_ACTING.has(code)) return;
  if (answer.status >= 500) return;
  if (isUnseenAccount(answer, code)) {
    // Visibility comes before the key: neither a replay nor a reuse is told to a caller who may not see the account.
    expectThat(
      !replayed,
      'idempotent-replay',
      () => `${where}: a 404 for an account the caller cannot see was replayed: ${answer.text.slice(0, 200)}`,
    );
    return;
  }
  const kept = keptAnswer(answer);
  if (replayed) {
    // A retry racing its original may be answered first, with the original's answer: it is the first one seen.
    if (!record && sent.overlapping) return;
    if (!record || record.fingerprint !== fingerprint) {
      expectThat(
        false,
        'idempotent-replay',
        () =>
          `${where}: Idempotency-Key ${key} replayed an answer, but no request with the key and this body was answered`,
      );
      return;
    }
    const first = (record.answer ??= kept);
    expectThat(
      first.status === kept.status && first.body === kept.body,
      'idempotent-replay',
      () =>
        `${where}: the retry with Idempotency-Key ${key} answered ${kept.status} ${kept.body.slice(0, 200)}, ` +
        `the first answer was ${first.status} ${first.body.slice(0, 200)}`,
    );
    return;
  }
  expectThat(record === undefined || record.kept === 'maybe', 'idempotent-replay', () =>
    record!.fingerprint === fingerprint
      ? `${where}: a retry with Idempotency-Key ${key} was handled anew (${answer.status} ${answer.text.slice(0, 200)}) instead of replaying ` +
        `${record!.answer ? `${record!.answer.status} ${record!.answer.body.slice(0, 160)}` : 'the answer of the request that took effect'}`
      : `${where}: Idempotency-Key ${key}, used before with another body, was not refused: ${answer.status} ${answer.text.slice(0, 200)}`,
  );
}
