// The firm-control routes (docs/api.md#routes): provisioning and account lookup, live risk state, the max-loss
// cap, replace, offerings and staff roles. Firm keys act on their own firm; a platform admin names one in
// X-Firm-ID. An account of another firm answers 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AssignStaffRoleBody, RemoveStaffRoleBody } from '../../core/accounts/staff-roles.js';
import { ProvisionAccountsBody } from '../../core/accounts/provisioning-request.js';
import { MaxLossLimitBody, OfferingBody } from '../../core/kernel/write/firm-control-bodies.js';
import {
  AccountRecordShape,
  ProvisionResultShape,
  ReplaceResultShape,
  RiskStateReadShape,
  RiskStateShape,
} from '../../core/shapes/account.js';
import { Id, PageOf } from '../../core/shapes/common.js';
import { OfferingsShape, StaffRoleAssignedShape, StaffRoleRemovedShape } from '../../core/shapes/firm-control.js';
import { ApiError, notFound } from '../gateway/api-error.js';
import { firmOf, readScopeOf } from '../gateway/caller.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { AccountParams, errors, GATEWAY_ERRORS, ListQuery } from '../schemas/common.js';
import { answer } from './answer.js';

const provision = { scope: 'accounts:write', needsFirm: true, faultTarget: 'accounts' } as const;
const firmRead = { scope: 'accounts:read', needsFirm: true, faultTarget: 'accounts' } as const;
const riskRead = { scope: 'accounts:read', needsFirm: true, faultTarget: 'risk' } as const;
const firmWrite = { scope: 'accounts:write', operatorOnly: true, needsFirm: true, faultTarget: 'accounts' } as const;

export const firmControlRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  const kernel = () => sandbox.kernel;
  const visible = (request: FastifyRequest, accountId: string) => {
    if (!kernel().read.visibleAccount(readScopeOf(request.caller), accountId))
      throw notFound('account_not_found', 'account', accountId);
  };

  app.post(
    '/v1/firm-control/accounts',
    {
      config: { policy: provision },
      schema: {
        tags: ['firm-control'],
        operationId: 'provisionAccounts',
        summary:
          'Provision evaluation accounts for a trader (201; 200 with the original answer for a repeated idempotency_key)',
        body: ProvisionAccountsBody,
        response: { 200: ProvisionResultShape, 201: ProvisionResultShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) =>
      answer(
        reply,
        kernel().dispatch({ type: 'provision_accounts', firm_id: firmOf(request.caller), body: request.body }),
      ),
  );

  app.get(
    '/v1/firm-control/accounts',
    {
      config: { policy: firmRead },
      schema: {
        tags: ['firm-control'],
        operationId: 'listFirmAccounts',
        summary: "The firm's accounts, by trader or purchase id",
        querystring: ListQuery({
          user_id: Type.Optional(Id),
          idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        }),
        response: { 200: PageOf(AccountRecordShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      return answer(reply, kernel().read.accounts(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );

  app.get(
    '/v1/firm-control/accounts/:account_id/risk-state',
    {
      config: { policy: riskRead },
      schema: {
        tags: ['firm-control'],
        operationId: 'getFirmAccountRiskState',
        summary: 'The live risk state (503 risk_loading while the risk engine loads the account)',
        params: AccountParams,
        response: { 200: RiskStateReadShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) =>
      answer(reply, kernel().read.riskState(readScopeOf(request.caller), request.params.account_id)),
  );

  app.patch(
    '/v1/firm-control/accounts/:account_id/max-loss-limit',
    {
      config: { policy: firmWrite },
      schema: {
        tags: ['firm-control'],
        operationId: 'setMaxLossLimit',
        summary: "Move one account's max-loss cap (null removes it)",
        params: AccountParams,
        body: MaxLossLimitBody,
        response: { 200: RiskStateShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      visible(request, request.params.account_id);
      return answer(
        reply,
        kernel().dispatch({ type: 'set_max_loss_limit', account_id: request.params.account_id, body: request.body }),
      );
    },
  );

  app.post(
    '/v1/firm-control/accounts/:account_id/replace',
    {
      config: { policy: firmWrite },
      schema: {
        tags: ['firm-control'],
        operationId: 'replaceAccount',
        summary: 'Flatten and close the account and mint a fresh one from the same template',
        params: AccountParams,
        response: { 201: ReplaceResultShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      visible(request, request.params.account_id);
      return answer(reply, kernel().dispatch({ type: 'replace_account', account_id: request.params.account_id }));
    },
  );

  app.get(
    '/v1/firm-control/offerings',
    {
      config: { policy: firmRead },
      schema: {
        tags: ['firm-control'],
        operationId: 'getOfferings',
        summary: "The firm's product families and whether each is enabled",
        response: { 200: OfferingsShape, ...GATEWAY_ERRORS },
      },
    },
    async (request) => kernel().read.offerings(firmOf(request.caller)),
  );

  app.put(
    '/v1/firm-control/offerings',
    {
      config: { policy: firmWrite },
      schema: {
        tags: ['firm-control'],
        operationId: 'setOffering',
        summary: 'Enable or disable a product family',
        body: OfferingBody,
        response: { 200: OfferingsShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) =>
      answer(reply, kernel().dispatch({ type: 'set_offering', firm_id: firmOf(request.caller), body: request.body })),
  );

  const entityHeader = Type.Object({
    'x-firm-entity-slug': Type.Optional(
      Type.String({ minLength: 1, maxLength: 63, description: "the firm's slug; must be the caller's firm" }),
    ),
  });
  const checkEntity = (request: FastifyRequest) => {
    const slug = request.headers['x-firm-entity-slug'];
    if (slug === undefined) return;
    const firm = kernel().read.firm(firmOf(request.caller))!;
    if (slug !== firm.slug)
      throw new ApiError(
        403,
        'entity_mismatch',
        `X-Firm-Entity-Slug ${String(slug)} is not the caller's firm (${firm.slug})`,
      );
  };

  app.post(
    '/v1/firm-control/staff/roles/assign',
    {
      config: { policy: firmWrite },
      schema: {
        tags: ['firm-control'],
        operationId: 'assignStaffRole',
        summary: 'Assign a role to a staff member',
        headers: entityHeader,
        body: AssignStaffRoleBody,
        response: { 200: StaffRoleAssignedShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      checkEntity(request);
      return answer(
        reply,
        kernel().dispatch({ type: 'assign_staff_role', firm_id: firmOf(request.caller), body: request.body }),
      );
    },
  );

  app.post(
    '/v1/firm-control/staff/roles/remove',
    {
      config: { policy: firmWrite },
      schema: {
        tags: ['firm-control'],
        operationId: 'removeStaffRole',
        summary: "Remove a staff member's role",
        headers: entityHeader,
        body: RemoveStaffRoleBody,
        response: { 200: StaffRoleRemovedShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      checkEntity(request);
      return answer(
        reply,
        kernel().dispatch({ type: 'remove_staff_role', firm_id: firmOf(request.caller), body: request.body }),
      );
    },
  );
};
