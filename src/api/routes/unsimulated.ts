// Routes the service has and the sandbox does not simulate (docs/api.md#the-auth-matrix): a firm key is refused
// as production refuses it (403 firm_key_forbidden_route); anyone else is told there is no such route (404).
import type { FastifyPluginAsync } from 'fastify';

const PREFIXES = ['/v1/market-data', '/v1/instruments', '/v1/journal', '/v1/pm', '/internal', '/v1/firm-control/me'];
const EXACT = ['/v1/firm-control/firms'];
const policy = { unsimulated: true, firmKeyForbidden: true } as const;

export const unsimulatedRoutes: FastifyPluginAsync = async (app) => {
  const paths = [...EXACT, ...PREFIXES, ...PREFIXES.map((p) => `${p}/*`)];
  for (const url of paths)
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url,
      config: { policy },
      schema: { hide: true },
      handler: async () => undefined,
    });
};
