// GET /dashboard, the sandbox's live page (docs/api.md#the-dashboard), and the echarts build it draws with. No
// credentials to load them: the page asks for a key and sends it itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyPluginAsync } from 'fastify';
import { DASHBOARD_HTML } from '../dashboard/dashboard-page.js';

const policy = { public: true, noFaults: true } as const;
let echartsBuild: string | undefined;

export const dashboardRoutes: FastifyPluginAsync = async (app) => {
  app.get('/dashboard', { config: { policy }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(DASHBOARD_HTML),
  );
  app.get('/dashboard/echarts.min.js', { config: { policy }, schema: { hide: true } }, async (_request, reply) => {
    echartsBuild ??= readFileSync(createRequire(import.meta.url).resolve('echarts/dist/echarts.min.js'), 'utf8');
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'max-age=3600').send(echartsBuild);
  });
};
