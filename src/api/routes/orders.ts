// Orders and OCO groups (docs/api.md#routes): place with an Idempotency-Key, list, read, status records, modify,
// cancel, link and companion. Handlers check that the caller may see the account or order (404 otherwise), then
// hand the body to the kernel, which validates it again and decides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { LinkOcoBody, ModifyOrderBody, OcoCompanionBody, PlaceOrderBody } from '../../core/orders/order-request.js';
import { PageOf } from '../../core/shapes/common.js';
import { OcoGroupShape, OrderShape, OrderStatesShape, OrderStatusShape } from '../../core/shapes/order.js';
import { notFound } from '../gateway/api-error.js';
import { readScopeOf } from '../gateway/caller.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { answer, settled } from './answer.js';
import { idempotentPlacement } from './idempotent-placement.js';
import { allSentWith, IDEMPOTENT_REPLAYED } from '../schemas/answer-headers.js';
import {
  AccountFilter,
  errors,
  GATEWAY_ERRORS,
  InstrumentFilter,
  ListQuery,
  OrderParams,
  TimeFilter,
} from '../schemas/common.js';

const read = { scope: 'trading:read', users: true, faultTarget: 'trading' } as const;
const write = { scope: 'trading:write', users: true, faultTarget: 'trading' } as const;

const OrderListQuery = ListQuery({
  ...AccountFilter,
  ...InstrumentFilter,
  status: Type.Optional(OrderStatusShape), // an unknown status is a 400, not an empty page
  ...TimeFilter,
});

export const orderRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  const placement = idempotentPlacement(sandbox);

  app.post(
    '/v1/orders',
    {
      config: { policy: write },
      onRequest: placement.claim,
      schema: {
        tags: ['orders'],
        operationId: 'placeOrder',
        summary: 'Place an order (202 SUBMITTED; it may end REJECTED). Send Idempotency-Key to retry safely.',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
        body: PlaceOrderBody,
        // A replayed answer (docs/api.md#idempotency) is one the kernel gave: an order, or its 400, 404 or 409.
        response: {
          ...GATEWAY_ERRORS,
          ...allSentWith(IDEMPOTENT_REPLAYED, { 202: OrderShape, ...errors(400, 404, 409) }),
        },
      },
    },
    async (request, reply) => {
      // Before the key is looked at: a caller who may not see the account gets the 404 a fresh request would, never
      // another caller's stored answer, and the 404 is not kept (docs/api.md#idempotency).
      if (!sandbox.kernel.read.visibleAccount(readScopeOf(request.caller), request.body.account_id))
        throw notFound('account_not_found', 'account', request.body.account_id);
      return placement.run(request, reply, () => sandbox.kernel.dispatch({ type: 'place_order', body: request.body }));
    },
  );

  app.get(
    '/v1/orders',
    {
      config: { policy: read },
      schema: {
        tags: ['orders'],
        operationId: 'listOrders',
        summary: 'List orders, oldest first',
        querystring: OrderListQuery,
        response: { 200: PageOf(OrderShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      return answer(reply, sandbox.kernel.read.orders(readScopeOf(request.caller), filter, { limit, cursor }));
    },
  );

  app.get(
    '/v1/orders/:order_id',
    {
      config: { policy: read },
      schema: {
        tags: ['orders'],
        operationId: 'getOrder',
        summary: 'One order',
        params: OrderParams,
        response: { 200: OrderShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) =>
      answer(reply, sandbox.kernel.read.order(readScopeOf(request.caller), request.params.order_id)),
  );

  app.get(
    '/v1/orders/:order_id/states',
    {
      config: { policy: read },
      schema: {
        tags: ['orders'],
        operationId: 'getOrderStates',
        summary: "The order's status records, in order",
        params: OrderParams,
        response: { 200: OrderStatesShape, ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) =>
      answer(reply, sandbox.kernel.read.orderStates(readScopeOf(request.caller), request.params.order_id)),
  );

  app.patch(
    '/v1/orders/:order_id',
    {
      config: { policy: write },
      schema: {
        tags: ['orders'],
        operationId: 'modifyOrder',
        summary: 'Modify quantity or prices (202; the venue may still reject it)',
        description:
          'The 202 answer is the order as it stands while the change travels to the venue: it still shows the old ' +
          'quantity and prices. A read after the change lands shows the new ones, and the status records say ' +
          '"modified: …" or "modify rejected: …" (docs/order-lifecycle.md#modify).',
        params: OrderParams,
        body: ModifyOrderBody,
        response: { 202: OrderShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const orderId = request.params.order_id;
      settled(sandbox.kernel.read.order(readScopeOf(request.caller), orderId));
      return answer(reply, sandbox.kernel.dispatch({ type: 'modify_order', order_id: orderId, body: request.body }));
    },
  );

  app.delete(
    '/v1/orders/:order_id',
    {
      config: { policy: write },
      schema: {
        tags: ['orders'],
        operationId: 'cancelOrder',
        summary: 'Cancel (202; 200 unchanged when already CANCELLED; 409 when final or a risk order)',
        description:
          'The 202 answer is the order as it stands while the cancel travels to the venue; a read after it lands ' +
          'shows CANCELLED, unless a fill got there first (docs/order-lifecycle.md#cancel).',
        params: OrderParams,
        response: { 200: OrderShape, 202: OrderShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const orderId = request.params.order_id;
      settled(sandbox.kernel.read.order(readScopeOf(request.caller), orderId));
      return answer(reply, sandbox.kernel.dispatch({ type: 'cancel_order', order_id: orderId }));
    },
  );

  app.post(
    '/v1/orders/groups/oco/link',
    {
      config: { policy: write },
      schema: {
        tags: ['orders'],
        operationId: 'linkOcoOrders',
        summary: 'Link working orders of one account into a one-cancels-other group',
        body: LinkOcoBody,
        response: { 201: OcoGroupShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const scope = readScopeOf(request.caller);
      for (const orderId of request.body.order_ids) settled(sandbox.kernel.read.order(scope, orderId));
      return answer(reply, sandbox.kernel.dispatch({ type: 'link_oco', body: request.body }));
    },
  );

  app.post(
    '/v1/orders/groups/oco/companion',
    {
      config: { policy: write },
      schema: {
        tags: ['orders'],
        operationId: 'addOcoCompanion',
        summary: 'Add a working order to an OCO group',
        body: OcoCompanionBody,
        response: { 200: OcoGroupShape, ...errors(409), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const scope = readScopeOf(request.caller);
      if (!sandbox.kernel.read.visibleOcoGroup(scope, request.body.oco_group_id))
        throw notFound('oco_group_not_found', 'OCO group', request.body.oco_group_id);
      settled(sandbox.kernel.read.order(scope, request.body.order_id));
      return answer(reply, sandbox.kernel.dispatch({ type: 'add_oco_companion', body: request.body }));
    },
  );
};
