// An answer leaves only once what its request changed is on disk (docs/api.md#persistence): every answer waits for
// the store's next commit when something is waiting to be committed, which also keeps a read from showing a write
// that a kill could still take back. Group commit makes that one fsync for all the requests of a turn of the loop.
// A store that failed to commit answers 503 `store_unavailable` from then on: the memory is ahead of the disk. The
// 503 keeps only X-Request-Id of the headers set before it.
import type { FastifyInstance } from 'fastify';
import type { Sandbox } from '../sandbox/sandbox.js';

export function installDurableAnswers(app: FastifyInstance, sandbox: Sandbox): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const durable = sandbox.durable();
    if (!durable) return done(null, payload);
    durable.then(
      () => done(null, payload),
      (error: Error) => {
        request.log.error({ err: error, request_id: request.id }, 'store commit failed');
        // What the handler meant to say goes with its answer: a session cookie the store did not keep, say.
        for (const name of Object.keys(reply.getHeaders())) if (name !== 'x-request-id') reply.removeHeader(name);
        reply.code(503).type('application/json; charset=utf-8');
        const body = {
          error: `the sandbox cannot keep its state: ${error.message}. Restart it`,
          code: 'store_unavailable',
          request_id: request.id,
        };
        done(null, JSON.stringify(body));
      },
    );
  });
}
