// Balances, adjustments and the daily-loss controls (docs/api.md#routes; the rules in
// docs/risk-rules.md#daily-loss). Reads in the caller's scope; the writes are operator-only firm-control.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdjustBody, DailyLossTriggerBody, ReanchorBody } from '../../core/kernel/write/firm-control-bodies.js';
import { AdjustmentShape, BalanceShape } from '../../core/shapes/account.js';
import { PageOf } from '../../core/shapes/common.js';
import { DailyLossTriggerResultShape, ReanchorResultShape } from '../../core/shapes/firm-control.js';
import { notFound } from '../gateway/api-error.js';
import { readScopeOf } from '../gateway/caller.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { AccountFilter, AccountParams, errors, GATEWAY_ERRORS, ListQuery } from '../schemas/common.js';
import { answer } from './answer.js';

const read = { scope: 'accounts:read', users: true, faultTarget: 'balances' } as const;
const firmRead = { scope: 'accounts:read', needsFirm: true, faultTarget: 'balances' } as const;
const write = { scope: 'accounts:write', operatorOnly: true, needsFirm: true, faultTarget: 'balances' } as const;

export const balanceRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  const kernel = () => sandbox.kernel;

  app.get(
    '/v1/balances',
    {
      config: { policy: read },
      schema: {
        tags: ['balances'],
        operationId: 'listBalances',
        summary: 'List balances',
        querystring: ListQuery(AccountFilter),
        response: { 200: PageOf(BalanceShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      return answer(reply, kernel().read.balances(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );

  app.get(
    '/v1/balances/:account_id',
    {
      config: { policy: read },
      schema: {
        tags: ['balances'],
        operationId: 'getBalance',
        summary: "An account's balance",
        params: AccountParams,
        response: { 200: BalanceShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) =>
      answer(reply, kernel().read.balance(readScopeOf(request.caller), request.params.account_id)),
  );

  app.get(
    '/v1/balances/:account_id/adjustments',
    {
      config: { policy: firmRead },
      schema: {
        tags: ['balances'],
        operationId: 'listBalanceAdjustments',
        summary: "An account's cash adjustments, oldest first",
        params: AccountParams,
        querystring: ListQuery({}),
        response: { 200: PageOf(AdjustmentShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      return answer(
        reply,
        kernel().read.adjustments(readScopeOf(request.caller), request.params.account_id, { limit, cursor }),
      );
    },
  );

  const accountOperation = (
    path: string,
    type: 'set_daily_loss_trigger' | 'reanchor_daily_loss' | 'adjust_balance',
    operationId: string,
    summary: string,
    body: typeof DailyLossTriggerBody | typeof ReanchorBody | typeof AdjustBody,
    response: typeof DailyLossTriggerResultShape | typeof ReanchorResultShape | typeof AdjustmentShape,
  ) =>
    app.post(
      path,
      {
        config: { policy: write },
        schema: {
          tags: ['balances'],
          operationId,
          summary,
          params: AccountParams,
          body,
          response: { 200: response, ...errors(409), ...GATEWAY_ERRORS },
        },
      },
      async (request, reply) => {
        const accountId = (request.params as { account_id: string }).account_id;
        if (!kernel().read.visibleAccount(readScopeOf(request.caller), accountId))
          throw notFound('account_not_found', 'account', accountId);
        return answer(reply, kernel().dispatch({ type, account_id: accountId, body: request.body }));
      },
    );

  accountOperation(
    '/v1/balances/:account_id/daily-loss/trigger',
    'set_daily_loss_trigger',
    'setDailyLossTrigger',
    "Move today's daily-loss floor without touching P&L",
    DailyLossTriggerBody,
    DailyLossTriggerResultShape,
  );
  accountOperation(
    '/v1/balances/:account_id/daily-loss/reanchor',
    'reanchor_daily_loss',
    'reanchorDailyLoss',
    "Re-anchor today's daily loss at current cash, keeping the allowance",
    ReanchorBody,
    ReanchorResultShape,
  );
  accountOperation(
    '/v1/balances/:account_id/adjust',
    'adjust_balance',
    'adjustBalance',
    'A cash adjustment, shifting the floors by default',
    AdjustBody,
    AdjustmentShape,
  );
};
