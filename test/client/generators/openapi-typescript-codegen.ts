// A short session through the client openapi-typescript-codegen generates from /openapi.json with `--client fetch
// --useOptions` (docs/api.md#client-generators). Its OpenAPI config is global: BASE is the sandbox, and TOKEN, sent as
// Authorization: Bearer, is the one credential (a firm key or a session token alike). A refusal throws its ApiError.
import { ApiError } from './codegen/core/ApiError';
import { OpenAPI } from './codegen/core/OpenAPI';
import { AuthService, FirmControlService, OrdersService, SandboxService } from './codegen';
import type { ErrorEnvelope } from './codegen';
import { limitOrder, type SessionSetup, type SessionSummary } from './session-summary';

/** `call` with `credential` as the bearer token. */
async function as<T>(credential: string, call: () => Promise<T>): Promise<T> {
  OpenAPI.TOKEN = credential;
  try {
    return await call();
  } finally {
    OpenAPI.TOKEN = undefined;
  }
}

export async function run(setup: SessionSetup): Promise<SessionSummary> {
  OpenAPI.BASE = setup.baseUrl;
  const firm = <T>(call: () => Promise<T>) => as(setup.operatorKey, call);
  const made = await firm(() =>
    FirmControlService.provisionAccounts({ requestBody: { user: { email: setup.email }, plan_reference: 'eval-50k' } }),
  );
  const accountId = made.account_ids[0]!;
  await as(setup.adminKey, () => SandboxService.advanceSandboxClock({ requestBody: { by: '1s' } }));

  const placed = await firm(() =>
    OrdersService.placeOrder({
      requestBody: limitOrder(accountId),
      idempotencyKey: `${setup.email}-1`,
    }),
  );
  const orderId = placed.order_id;
  const modified = await firm(() => OrdersService.modifyOrder({ orderId, requestBody: { limit_price: '4995.00' } }));
  const afterModify = await firm(() => OrdersService.getOrder({ orderId }));
  const cancel = await firm(() => OrdersService.cancelOrder({ orderId }));
  const afterCancel = await firm(() => OrdersService.getOrder({ orderId }));
  let notFound = 'no error';
  try {
    await firm(() => OrdersService.getOrder({ orderId: '00000000-0000-4000-8000-000000000000' }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    notFound = (error.body as ErrorEnvelope).code;
  }

  const session = await AuthService.login({ requestBody: { email: setup.email, password: setup.password } });
  const own = await as(session.access_token, () => OrdersService.listOrders({}));
  const exported = await as(setup.adminKey, () => SandboxService.exportSession());

  return {
    placed: { status: placed.status, type: placed.type, limit_price: placed.limit_price },
    modifyAnswer: modified.limit_price,
    modifiedPrice: afterModify.limit_price,
    cancelAnswer: cancel.status,
    cancelled: afterCancel.status,
    notFound,
    traderOrders: own.items.length,
    exportFirstLine: exported.split('\n')[0]!,
  };
}
