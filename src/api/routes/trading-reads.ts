// Fills, trades and their lots, positions (current and daily) and stats (docs/api.md#routes): reads in the
// caller's scope — its firm, or for a user session its own accounts; anything else answers 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, ItemsOf, PageOf, TradeDate } from '../../core/shapes/common.js';
import { FillShape, TradeLotsShape, TradeShape } from '../../core/shapes/fill.js';
import { DailyPositionShape, PositionShape } from '../../core/shapes/position.js';
import { StatsShape } from '../../core/shapes/stats.js';
import { notFound } from '../gateway/api-error.js';
import { readScopeOf } from '../gateway/caller.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import {
  AccountFilter,
  AccountParams,
  GATEWAY_ERRORS,
  InstrumentFilter,
  ListQuery,
  TimeFilter,
  TradeParams,
} from '../schemas/common.js';
import { answer } from './answer.js';

const read = { scope: 'trading:read', users: true, faultTarget: 'trading' } as const;

export const tradingReadRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  const kernel = () => sandbox.kernel;

  app.get(
    '/v1/fills',
    {
      config: { policy: read },
      schema: {
        tags: ['trading'],
        operationId: 'listFills',
        summary: 'List fills, oldest first',
        querystring: ListQuery({ ...AccountFilter, ...InstrumentFilter, ...TimeFilter }),
        response: { 200: PageOf(FillShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      return answer(reply, kernel().read.fills(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );

  app.get(
    '/v1/trades',
    {
      config: { policy: read },
      schema: {
        tags: ['trading'],
        operationId: 'listTrades',
        summary: 'List trades (flat to flat), oldest first',
        querystring: ListQuery({
          ...AccountFilter,
          ...InstrumentFilter,
          status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
          ...TimeFilter,
        }),
        response: { 200: PageOf(TradeShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      return answer(reply, kernel().read.trades(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );

  app.get(
    '/v1/trades/:trade_id/lots',
    {
      config: { policy: read },
      schema: {
        tags: ['trading'],
        operationId: 'getTradeLots',
        summary: "A trade's FIFO lots, in the order they closed",
        params: TradeParams,
        response: { 200: TradeLotsShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) =>
      answer(reply, kernel().read.tradeLots(readScopeOf(request.caller), request.params.trade_id)),
  );

  app.get(
    '/v1/positions',
    {
      config: { policy: read },
      schema: {
        tags: ['trading'],
        operationId: 'listPositions',
        summary: 'List current positions',
        querystring: ListQuery({ ...AccountFilter, ...InstrumentFilter }),
        response: { 200: PageOf(PositionShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      return answer(reply, kernel().read.positions(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );

  app.get(
    '/v1/accounts/:account_id/positions',
    {
      config: { policy: read },
      schema: {
        tags: ['trading'],
        operationId: 'listAccountPositions',
        summary: "An account's current positions",
        params: AccountParams,
        querystring: ListQuery(InstrumentFilter),
        response: { 200: PageOf(PositionShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const scope = readScopeOf(request.caller);
      const accountId = request.params.account_id;
      if (!kernel().read.visibleAccount(scope, accountId)) throw notFound('account_not_found', 'account', accountId);
      const { limit, cursor, ...filter } = request.query;
      return answer(reply, kernel().read.positions(scope, { ...filter, account_id: accountId }, { limit, cursor }));
    },
  );

  app.get(
    '/v1/accounts/:account_id/positions/daily',
    {
      config: { policy: read },
      schema: {
        tags: ['trading'],
        operationId: 'listDailyPositions',
        summary: 'Daily position records per (instrument, trade date) from from_date to to_date, inclusive',
        params: AccountParams,
        querystring: Type.Object(
          { from_date: TradeDate, to_date: TradeDate, ...InstrumentFilter },
          { additionalProperties: false },
        ),
        response: { 200: ItemsOf(DailyPositionShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      return answer(
        reply,
        kernel().read.dailyPositions(readScopeOf(request.caller), request.params.account_id, request.query),
      );
    },
  );

  app.get(
    '/v1/stats',
    {
      config: { policy: read },
      schema: {
        tags: ['trading'],
        operationId: 'getStats',
        summary: "An account's trading statistics",
        querystring: Type.Object({ account_id: Id }, { additionalProperties: false }),
        response: { 200: StatsShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => answer(reply, kernel().read.stats(readScopeOf(request.caller), request.query.account_id)),
  );
};
