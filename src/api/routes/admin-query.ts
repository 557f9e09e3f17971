// GET /v1/admin/query/{accounts,orders,fills,balances} (docs/api.md#routes): read-only pages over the caller's
// firm with the list filters.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AccountRecordShape, AccountStatusShape, BalanceShape } from '../../core/shapes/account.js';
import { Id, PageOf } from '../../core/shapes/common.js';
import { FillShape } from '../../core/shapes/fill.js';
import { OrderShape, OrderStatusShape } from '../../core/shapes/order.js';
import type { PageRequest } from '../../core/kernel/read/paging.js';
import type { ListFilter } from '../../core/kernel/read/reads.js';
import { readScopeOf } from '../gateway/caller.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { AccountFilter, GATEWAY_ERRORS, InstrumentFilter, ListQuery, TimeFilter } from '../schemas/common.js';
import { answer } from './answer.js';

const policy = { scope: 'accounts:read', needsFirm: true, faultTarget: 'accounts' } as const;

export const adminQueryRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  const schema = (
    operationId: string,
    summary: string,
    querystring: ReturnType<typeof ListQuery>,
    item: Parameters<typeof PageOf>[0],
  ) => ({
    tags: ['admin'],
    operationId,
    summary,
    querystring,
    response: { 200: PageOf(item), ...GATEWAY_ERRORS },
  });

  app.get(
    '/v1/admin/query/accounts',
    {
      config: { policy },
      schema: schema(
        'adminQueryAccounts',
        "The firm's accounts",
        ListQuery({ user_id: Type.Optional(Id), status: Type.Optional(AccountStatusShape) }),
        AccountRecordShape,
      ),
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query as ListFilter & PageRequest;
      return answer(reply, sandbox.kernel.read.accounts(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );
  app.get(
    '/v1/admin/query/orders',
    {
      config: { policy },
      schema: schema(
        'adminQueryOrders',
        "The firm's orders",
        ListQuery({ ...AccountFilter, ...InstrumentFilter, status: Type.Optional(OrderStatusShape), ...TimeFilter }),
        OrderShape,
      ),
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query as ListFilter & PageRequest;
      return answer(reply, sandbox.kernel.read.orders(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );
  app.get(
    '/v1/admin/query/fills',
    {
      config: { policy },
      schema: schema(
        'adminQueryFills',
        "The firm's fills",
        ListQuery({ ...AccountFilter, ...InstrumentFilter, ...TimeFilter }),
        FillShape,
      ),
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query as ListFilter & PageRequest;
      return answer(reply, sandbox.kernel.read.fills(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );
  app.get(
    '/v1/admin/query/balances',
    {
      config: { policy },
      schema: schema('adminQueryBalances', "The firm's balances", ListQuery(AccountFilter), BalanceShape),
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query as ListFilter & PageRequest;
      return answer(reply, sandbox.kernel.read.balances(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );
};
