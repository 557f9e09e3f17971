// GET /dashboard, the sandbox's live page (docs/api.md#the-dashboard), the echarts build it draws with, and the
// accounts' histories it starts from. No credentials to load the page: it asks for a key and sends it itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Id } from '../../core/shapes/common.js';
import { Type } from 'typebox';
import { AccountHistories } from '../dashboard/account-histories.js';
import { accountHistoryJson, AccountHistoriesShape } from '../dashboard/account-history-shape.js';
import { DASHBOARD_HTML } from '../dashboard/dashboard-page.js';
import { readScopeOf } from '../gateway/caller.js';
import { notFound } from '../gateway/api-error.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { GATEWAY_ERRORS, ListQuery } from '../schemas/common.js';
import { settled } from './answer.js';

const policy = { public: true, noFaults: true } as const;
const firmRead = { scope: 'accounts:read', needsFirm: true, faultTarget: 'accounts' } as const;
let echartsBuild: string | undefined;

export const dashboardRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  const histories = new AccountHistories(() => sandbox.kernel, sandbox.streams);
  sandbox.onReset(() => histories.clear());

  app.get('/dashboard', { config: { policy }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(DASHBOARD_HTML),
  );
  app.get('/dashboard/echarts.min.js', { config: { policy }, schema: { hide: true } }, async (_request, reply) => {
    echartsBuild ??= readFileSync(createRequire(import.meta.url).resolve('echarts/dist/echarts.min.js'), 'utf8');
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'max-age=3600').send(echartsBuild);
  });

  app.get(
    '/v1/firm-control/account-histories',
    {
      config: { policy: firmRead },
      schema: {
        tags: ['firm-control'],
        operationId: 'listAccountHistories',
        summary:
          "A page of the firm's accounts with their equity, floors, fills and locks so far, and the stream sequence to follow from",
        description:
          "The sandbox's own route, for its dashboard (docs/api.md#the-dashboard): the service the sandbox simulates has no such route.",
        querystring: ListQuery({ account_id: Type.Optional(Id) }),
        response: { 200: AccountHistoriesShape, ...GATEWAY_ERRORS },
      },
    },
    async (request) => {
      const { limit, cursor, account_id } = request.query;
      const sequence = histories.start();
      const kernel = sandbox.kernel;
      const scope = readScopeOf(request.caller);
      const page = settled(kernel.read.accounts(scope, { account_id }, { limit, cursor }));
      if (account_id !== undefined && page.items.length === 0)
        throw notFound('account_not_found', 'account', account_id);
      return {
        sequence,
        now_ms: kernel.read.clock().now_ms,
        items: page.items.map((record) => accountHistoryJson(kernel, histories, record)),
        next_cursor: page.next_cursor,
      };
    },
  );
};
