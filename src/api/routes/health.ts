// GET /health and GET /openapi.json: no credentials (docs/api.md#start-up).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { servedDocument } from '../openapi/served-document.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { errors } from '../schemas/common.js';

const open = { public: true, noFaults: true } as const;

export const healthRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  app.get(
    '/health',
    {
      config: { policy: open },
      schema: {
        tags: ['service'],
        operationId: 'getHealth',
        summary: 'Liveness, and the simulated clock',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ok'), now_ms: Type.Integer() }, { additionalProperties: false }),
          ...errors(429), // the rate limit counts every caller, by IP without credentials (docs/api.md#rate-limits)
        },
      },
    },
    async () => ({ status: 'ok' as const, now_ms: sandbox.kernel.nowMs }),
  );

  app.get('/openapi.json', { config: { policy: open }, schema: { hide: true } }, async () => servedDocument(app));
};
