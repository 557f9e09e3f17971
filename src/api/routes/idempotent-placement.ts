// POST /v1/orders with an Idempotency-Key (docs/api.md#idempotency). The key is claimed as the request arrives
// (before its body is read), so a concurrent duplicate answers 409 `idempotency_request_in_progress`; a later one
// replays the stored answer or, with another body, 409 `idempotency_key_reused`. The claim ends as soon as the answer
// is stored (the same turn as the placement), or when the connection closes without one: a client that gives up
// while its order waits for the commit, or while its body arrives, must not leave the key claimed for good. Keys
// are per firm: a user's firm, an admin's X-Firm-ID.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { echoed } from '../../core/validation/echo.js';
import type { Outcome } from '../../core/outcome.js';
import { ApiError } from '../gateway/api-error.js';
import type { Caller } from '../gateway/caller.js';
import { fingerprintOf, IDEMPOTENCY_TTL_MS } from '../sandbox/idempotency.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { StoredError } from '../sandbox/sandbox-records.js';
import { answer } from './answer.js';

const claims = new WeakMap<FastifyRequest, { firm: string; key: string }>();

export function idempotentPlacement(sandbox: Sandbox) {
  return {
    claim(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
      const key = request.headers['idempotency-key'];
      if (typeof key !== 'string' || key === '') return done();
      const firm = firmScope(request.caller);
      if (!sandbox.idempotency.claim(firm, key, request))
        throw new ApiError(
          409,
          'idempotency_request_in_progress',
          `a request with Idempotency-Key ${echoed(key)} is still being handled`,
        );
      claims.set(request, { firm, key });
      // 'close' comes once the answer is sent or the connection is gone, whichever is first.
      reply.raw.once('close', () => release(request));
      done();
    },

    run<T>(request: FastifyRequest, reply: FastifyReply, place: () => Outcome<T>): T {
      const claim = claims.get(request);
      if (!claim) return answer(reply, place());
      const nowMs = sandbox.kernel.nowMs;
      const fingerprint = fingerprintOf(request.body);
      const found = sandbox.idempotency.lookup(claim.firm, claim.key, fingerprint, nowMs);
      if (found.kind === 'reused')
        throw new ApiError(
          409,
          'idempotency_key_reused',
          `Idempotency-Key ${echoed(claim.key)} was used with another body`,
        );
      if (found.kind === 'replay') {
        reply.header('idempotent-replayed', 'true');
        if (found.answer.status >= 400) throw storedError(found.answer.status, found.answer.body);
        reply.code(found.answer.status);
        return found.answer.body as T;
      }
      // Stored in the same turn as the placement, so the store commits both or neither.
      const store = (status: number, body: unknown) =>
        sandbox.storeIdempotentAnswer({
          firm: claim.firm,
          key: claim.key,
          fingerprint,
          status,
          body,
          expires_at_ms: nowMs + IDEMPOTENCY_TTL_MS,
        });
      try {
        // What the kernel answered is kept, its refusals too: the request reached it (docs/api.md#idempotency).
        const outcome = place();
        store(outcome.status, outcome.ok ? outcome.body : storedErrorOf(outcome.body));
        return answer(reply, outcome);
      } finally {
        release(request); // stored (or failed): a duplicate from now on is answered from the record
      }
    },
  };

  function release(request: FastifyRequest): void {
    const claim = claims.get(request);
    if (claim) sandbox.idempotency.release(claim.firm, claim.key, request);
  }
}

function firmScope(caller: Caller): string {
  return caller.kind === 'anonymous' ? '-' : (caller.firmId ?? 'platform');
}

/** A kernel's refusal as the store keeps it: the envelope's fields. */
function storedErrorOf(refusal: StoredError): StoredError {
  return { error: refusal.error, code: refusal.code, ...(refusal.details ? { details: refusal.details } : {}) };
}

function storedError(status: number, body: unknown): ApiError {
  const refusal = body as StoredError;
  return new ApiError(status, refusal.code, refusal.error, refusal.details);
}
