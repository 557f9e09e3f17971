// A short session through the client orval 7 generates from /openapi.json with `client: 'fetch'` and propsim-fetch.ts
// as its mutator (docs/api.md#client-generators): the mutator sets the base URL and reads each body by its content
// type; each call sends its one credential in its RequestInit headers.
import {
  advanceSandboxClock,
  cancelOrder,
  exportSession,
  getOrder,
  listOrders,
  login,
  modifyOrder,
  placeOrder,
  provisionAccounts,
} from './orval/propsim';
import { configurePropsim } from './propsim-fetch';
import { limitOrder, summaryOf, type SessionSetup, type SessionSummary } from './session-summary';

/** The answer when its status is `status`, else a thrown error naming what came. */
function expectStatus<A extends { status: number; data: unknown }, S extends A['status']>(
  answer: A,
  status: S,
): Extract<A, { status: S }> {
  if (answer.status !== status)
    throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.data)}`);
  return answer as Extract<A, { status: S }>;
}

export async function run(setup: SessionSetup): Promise<SessionSummary> {
  configurePropsim({ baseUrl: setup.baseUrl });
  const firm = { headers: { 'X-Service-Api-Key': setup.operatorKey } };
  const admin = { headers: { 'X-Service-Api-Key': setup.adminKey } };
  const made = expectStatus(
    await provisionAccounts({ user: { email: setup.email }, plan_reference: 'eval-50k' }, firm),
    201,
  );
  const accountId = made.data.account_ids[0]!;
  expectStatus(await advanceSandboxClock({ by: '1s' }, admin), 200);

  const placed = expectStatus(
    await placeOrder(limitOrder(accountId), { headers: { ...firm.headers, 'Idempotency-Key': `${setup.email}-1` } }),
    202,
  );
  const orderId = placed.data.order_id;
  const modified = expectStatus(await modifyOrder(orderId, { limit_price: '4995.00' }, firm), 202);
  const afterModify = expectStatus(await getOrder(orderId, firm), 200);
  const cancel = expectStatus(await cancelOrder(orderId, firm), 202);
  const afterCancel = expectStatus(await getOrder(orderId, firm), 200);
  const missing = expectStatus(await getOrder('00000000-0000-4000-8000-000000000000', firm), 404);

  const session = expectStatus(await login({ email: setup.email, password: setup.password }), 200);
  const own = expectStatus(
    await listOrders(undefined, { headers: { Authorization: `Bearer ${session.data.access_token}` } }),
    200,
  );
  const exported = expectStatus(await exportSession(admin), 200);

  return summaryOf({ placed, modified, afterModify, cancel, afterCancel, own }, missing.data.code, exported.data);
}
