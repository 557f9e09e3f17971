// A short session through the client @hey-api/openapi-ts generates from /openapi.json (docs/api.md#client-generators).
// Each operation lists the credentials it accepts as alternatives, and hey-api fills every one its `auth` gives a
// value for: the `auth` callback answers for one scheme, so each request carries one credential.
import { createClient, createConfig } from './hey-api/client/index';
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
} from './hey-api/sdk.gen';
import type { ErrorEnvelope } from './hey-api/types.gen';
import { limitOrder, summaryOf, type SessionSetup, type SessionSummary } from './session-summary';

/** A client that sends a firm or admin key in X-Service-Api-Key, and nothing else. */
function keyClient(baseUrl: string, key: string) {
  return createClient(
    createConfig({ baseUrl, auth: (scheme) => (scheme.name === 'X-Service-Api-Key' ? key : undefined) }),
  );
}

/** A client that sends a session token as Authorization: Bearer, and nothing else. */
function tokenClient(baseUrl: string, token: string) {
  return createClient(createConfig({ baseUrl, auth: (scheme) => (scheme.scheme === 'bearer' ? token : undefined) }));
}

export async function run(setup: SessionSetup): Promise<SessionSummary> {
  const firm = keyClient(setup.baseUrl, setup.operatorKey);
  const admin = keyClient(setup.baseUrl, setup.adminKey);
  const made = await provisionAccounts({
    client: firm,
    body: { user: { email: setup.email }, plan_reference: 'eval-50k' },
    throwOnError: true,
  });
  const accountId = made.data.account_ids[0]!;
  await advanceSandboxClock({ client: admin, body: { by: '1s' }, throwOnError: true });

  const placed = await placeOrder({
    client: firm,
    body: limitOrder(accountId),
    headers: { 'idempotency-key': `${setup.email}-1` },
    throwOnError: true,
  });
  const orderId = placed.data.order_id;
  const path = { order_id: orderId };
  const modified = await modifyOrder({ client: firm, path, body: { limit_price: '4995.00' }, throwOnError: true });
  const afterModify = await getOrder({ client: firm, path, throwOnError: true });
  const cancel = await cancelOrder({ client: firm, path, throwOnError: true });
  const afterCancel = await getOrder({ client: firm, path, throwOnError: true });
  const missing = await getOrder({ client: firm, path: { order_id: '00000000-0000-4000-8000-000000000000' } });

  const session = await login({ body: { email: setup.email, password: setup.password }, throwOnError: true });
  const trader = tokenClient(setup.baseUrl, session.data.access_token);
  const own = await listOrders({ client: trader, throwOnError: true });

  // The export is YAML: read it as text (hey-api would make a Blob of an application/yaml answer).
  const exported = await exportSession({ client: admin, parseAs: 'text', throwOnError: true });

  return summaryOf(
    { placed, modified, afterModify, cancel, afterCancel, own },
    (missing.error as ErrorEnvelope | undefined)?.code ?? `status ${missing.response.status}`,
    String(exported.data),
  );
}

/** What `auth: key` does instead: it fills all three schemes, and the gateway refuses two credentials. */
export async function everySchemeFilled(setup: SessionSetup): Promise<{ status: number; code: string | undefined }> {
  const naive = createClient(createConfig({ baseUrl: setup.baseUrl, auth: setup.operatorKey }));
  const answer = await listOrders({ client: naive });
  return { status: answer.response.status, code: (answer.error as ErrorEnvelope | undefined)?.code };
}
