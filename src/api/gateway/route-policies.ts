// Default deny (docs/api.md#gateway): every route declares who may call it (`config: { policy }`), and the app refuses
// to start when one does not, rather than serving it to anyone. The interactive reference that @fastify/swagger-ui
// registers under /docs is public by nature and gets its policy here; the not-found handler has none and answers 404.
import type { FastifyInstance } from 'fastify';
import type { RoutePolicy } from './caller.js';

/** The reference page and its files: no credentials, never behind a fault window. */
const DOCS_POLICY: RoutePolicy = { public: true, noFaults: true };

export class MissingRoutePolicyError extends Error {
  constructor(method: string, url: string) {
    super(
      `the route ${method} ${url} declares no auth policy (config.policy): every route must say who may call it (docs/api.md#gateway)`,
    );
    this.name = 'MissingRoutePolicyError';
  }
}

/** Registers the check; call it before any route is added. */
export function requireRoutePolicies(app: FastifyInstance, docsPrefix: string): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.policy) return;
    if (route.url === docsPrefix || route.url.startsWith(`${docsPrefix}/`)) {
      route.config = { ...route.config, policy: DOCS_POLICY };
      return;
    }
    throw new MissingRoutePolicyError(String(route.method), route.url);
  });
}
