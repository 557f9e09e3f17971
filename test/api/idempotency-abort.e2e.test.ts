// docs/api.md#idempotency over real sockets: a client that gives up on POST /v1/orders (its connection closed while the
// order waits for the store's commit, or while its body is still arriving) does not leave its Idempotency-Key claimed.
// Its retry is answered: the first answer replayed when the first request placed the order, a placement when it did
// not; never 409 idempotency_request_in_progress for good.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { buyLimitBody, KEYS } from './api-harness.js';
import { startListeningSandbox, type ListeningSandbox } from './listening-sandbox.js';

const acme = { 'x-service-api-key': KEYS.acmeOperator };
let sandbox: ListeningSandbox | undefined;
afterEach(() => sandbox?.app.close());

const nextTurn = () => new Promise((next) => setImmediate(next));

async function openSandbox(): Promise<{ sandbox: ListeningSandbox; account: string }> {
  sandbox = await startListeningSandbox();
  const account = (await sandbox.http('GET', '/v1/firm-control/accounts', acme)).body.items[0].account_id as string;
  await sandbox.http('POST', '/v1/sandbox/clock/advance', { 'x-service-api-key': KEYS.admin }, { by: '1s' });
  return { sandbox, account };
}

/** A store slow to commit: every answer waits until `commit()` (docs/api.md#persistence). */
function slowStore(sandbox: ListeningSandbox): () => void {
  let commit!: () => void;
  const gate = new Promise<void>((done) => (commit = done));
  sandbox.sandbox.durable = () => gate;
  return () => {
    commit();
    sandbox.sandbox.durable = () => undefined;
  };
}

function orderCount(sandbox: ListeningSandbox): number {
  const page = sandbox.sandbox.kernel.read.orders({}, {}, { limit: 10 });
  return page.ok ? page.body.items.length : -1;
}

describe('docs/api.md#idempotency: an aborted request releases its key', () => {
  it.each(['the order waits for the commit', 'the body is still arriving'] as const)(
    'the connection closes while %s: the retry is answered, and one order is placed in all',
    async (moment) => {
      const { sandbox, account } = await openSandbox();
      const commit = slowStore(sandbox);
      const [host, port] = sandbox.address.split(':');
      const headers = { ...acme, 'idempotency-key': 'abort-1', 'content-type': 'application/json' };
      const body = JSON.stringify(buyLimitBody(account, '4900.00', 'gtc'));
      const first = request({ host, port: Number(port), method: 'POST', path: '/v1/orders', headers });
      first.on('error', () => undefined); // the socket hang-up this client asked for
      if (moment === 'the order waits for the commit') {
        first.end(body);
        while (orderCount(sandbox) === 0) await nextTurn();
      } else {
        first.flushHeaders();
        first.write(body.slice(0, 10));
        await new Promise((settle) => setTimeout(settle, 50));
      }
      first.destroy();
      await new Promise((settle) => setTimeout(settle, 50));
      commit();
      const retry = await fetch(`http://${sandbox.address}/v1/orders`, { method: 'POST', headers, body });
      expect(retry.status, await retry.clone().text()).toBe(202);
      expect(orderCount(sandbox), 'one order in all').toBe(1);
      expect(retry.headers.get('idempotent-replayed') ?? 'false', 'replayed only when the first placed the order').toBe(
        moment === 'the order waits for the commit' ? 'true' : 'false',
      );
    },
  );
});
