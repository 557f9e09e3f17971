// The per-account operations a firm runs on /v1/accounts (docs/api.md#routes): lockout and unlock, flatten, and
// cancel-all. Operator keys only; an account of another firm answers 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CommandAnswers, KernelCommand } from '../../core/kernel/write/commands.js';
import type { Outcome } from '../../core/outcome.js';
import { LockoutBody } from '../../core/kernel/write/firm-control-bodies.js';
import { RiskStateShape } from '../../core/shapes/account.js';
import { CancelAllResultShape, FlattenResultShape } from '../../core/shapes/firm-control.js';
import { notFound } from '../gateway/api-error.js';
import { readScopeOf } from '../gateway/caller.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { AccountParams, errors, GATEWAY_ERRORS } from '../schemas/common.js';
import { answer } from './answer.js';

const write = { scope: 'accounts:write', operatorOnly: true, needsFirm: true, faultTarget: 'accounts' } as const;

export const accountOperationRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  const run = <T extends 'lockout' | 'unlock' | 'flatten' | 'cancel_all_orders'>(
    request: { caller: Parameters<typeof readScopeOf>[0]; params: { account_id: string }; body?: unknown },
    type: T,
  ): Outcome<CommandAnswers[T]> => {
    const accountId = request.params.account_id;
    if (!sandbox.kernel.read.visibleAccount(readScopeOf(request.caller), accountId))
      throw notFound('account_not_found', 'account', accountId);
    const command = { type, account_id: accountId, ...(request.body === undefined ? {} : { body: request.body }) };
    return sandbox.kernel.dispatch(
      command as { type: T; account_id: string; body?: unknown } & KernelCommand,
    ) as Outcome<CommandAnswers[T]>;
  };

  app.post(
    '/v1/accounts/:account_id/lockout',
    {
      config: { policy: write },
      schema: {
        tags: ['firm-control'],
        operationId: 'lockAccount',
        summary: 'Lock the account (firm_lockout); flatten: true also cancels its orders and closes its positions',
        params: AccountParams,
        body: LockoutBody,
        response: { 200: RiskStateShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => answer(reply, run(request, 'lockout')),
  );

  app.delete(
    '/v1/accounts/:account_id/lockout',
    {
      config: { policy: write },
      schema: {
        tags: ['firm-control'],
        operationId: 'unlockAccount',
        summary: "Remove the firm's lock (409 when there is none)",
        params: AccountParams,
        response: { 200: RiskStateShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => answer(reply, run({ caller: request.caller, params: request.params }, 'unlock')),
  );

  app.post(
    '/v1/accounts/:account_id/flatten',
    {
      config: { policy: write },
      schema: {
        tags: ['firm-control'],
        operationId: 'flattenAccount',
        summary: 'Cancel working orders and send offsetting market orders',
        params: AccountParams,
        response: { 200: FlattenResultShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => answer(reply, run({ caller: request.caller, params: request.params }, 'flatten')),
  );

  app.post(
    '/v1/accounts/:account_id/orders/cancel',
    {
      config: { policy: write },
      schema: {
        tags: ['firm-control'],
        operationId: 'cancelAccountOrders',
        summary: "Cancel the account's working orders",
        params: AccountParams,
        response: { 200: CancelAllResultShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) =>
      answer(reply, run({ caller: request.caller, params: request.params }, 'cancel_all_orders')),
  );
};
