// WebSocket fan-out (issue 12): a real `propsim serve` process and SUBSCRIBERS sockets of one trader following the
// `orders` channel of their account, while orders are placed and filled at a steady rate. Delivery latency is
// from the moment the print that fills an order is sent to the moment each socket receives its FILLED record.
// The bar is 1,000 subscribers x 1,000 orders/s with p99 <= 20 ms; the subscribers run in this process,
// on the same two cores as the server, so the rate is a parameter and the figures say what was offered.
import WebSocket from 'ws';
import { startServer } from './api.bench.js';
import type { Bench } from './bench.js';

const SUBSCRIBERS = 1_000;
const ORDERS_PER_SECOND = Number(process.env.PROPSIM_BENCH_ORDERS_PER_SECOND ?? 100);
const DURATION_S = 5;
const TICK_MS = 20;
const KEY = 'svc_live_acme_operator_demo';
const ADMIN = 'svc_live_platform_admin_demo';

export const streamsBench: Bench = {
  name: 'streams',
  description: `WebSocket fan-out: ${SUBSCRIBERS.toLocaleString('en-US')} subscribers of /v1/ws, ${ORDERS_PER_SECOND} orders/s filled for ${DURATION_S} s, delivery latency of each FILLED record`,
  async run(log) {
    const server = await startServer();
    const sockets: WebSocket[] = [];
    try {
      const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
        fetch(server.url + path, {
          method,
          headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }).then(async (r) => (await r.json()) as Record<string, unknown>);
      const login = await api(
        'POST',
        '/v1/auth/login',
        {},
        { email: 'trader@acme.example', password: 'propsim-sandbox' },
      );
      const token = login.access_token as string;
      const balances = await api('GET', '/v1/balances', { authorization: `Bearer ${token}` });
      const accountId = (balances.items as Array<{ account_id: string }>)[0]!.account_id;
      await api('POST', '/v1/sandbox/clock/advance', { 'X-Service-Api-Key': ADMIN }, { by: '1s' });

      const printSentAt = new Map<string, number>();
      const latencies: number[] = [];
      let messages = 0;
      const wsUrl = server.url.replace('http://', 'ws://') + '/v1/ws';
      for (let batch = 0; batch < SUBSCRIBERS; batch += 100) {
        await Promise.all(
          Array.from({ length: Math.min(100, SUBSCRIBERS - batch) }, () => subscriber(wsUrl, token, accountId)),
        ).then((opened) => sockets.push(...opened));
      }
      for (const ws of sockets)
        ws.on('message', (data: Buffer) => {
          messages++;
          const text = data.toString();
          if (!text.includes('"status":"FILLED"')) return;
          const at = text.indexOf('"order_id":"') + 12;
          const sentAt = printSentAt.get(text.slice(at, at + 36));
          if (sentAt !== undefined) latencies.push(performance.now() - sentAt);
        });
      log(`  ${sockets.length} sockets subscribed`);

      const perTick = Math.max(1, Math.round((ORDERS_PER_SECOND * TICK_MS) / 1000));
      const started = performance.now();
      let placed = 0;
      for (let tick = 0; tick < (DURATION_S * 1000) / TICK_MS; tick++) {
        const ids: string[] = [];
        for (let i = 0; i < perTick; i++) {
          const order = await api(
            'POST',
            '/v1/orders',
            { 'X-Service-Api-Key': KEY },
            {
              account_id: accountId,
              instrument_id: 'ESM6',
              side: placed++ % 2 === 0 ? 'buy' : 'sell',
              type: 'market',
              quantity: 1,
              time_in_force: 'day',
            },
          );
          ids.push(order.order_id as string);
        }
        const now = performance.now();
        for (const id of ids) printSentAt.set(id, now);
        await api(
          'POST',
          '/v1/sandbox/market/prints',
          { 'X-Service-Api-Key': ADMIN },
          {
            prints: [{ instrument_id: 'ESM6', price: '5000.00' }],
          },
        );
        const due = started + (tick + 1) * TICK_MS;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((settle) => setTimeout(settle, wait));
      }
      await new Promise((settle) => setTimeout(settle, 1000)); // the last deliveries
      const seconds = (performance.now() - started) / 1000 - 1;
      latencies.sort((a, b) => a - b);
      const pct = (p: number) =>
        Number((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN).toFixed(1));
      const figures = {
        subscribers: sockets.length,
        ordersPlaced: placed,
        ordersPerSecond: Math.round(placed / seconds),
        filledDeliveries: latencies.length,
        expectedDeliveries: placed * sockets.length,
        messagesPerSecond: Math.round(messages / seconds),
        p50Ms: pct(0.5),
        p99Ms: pct(0.99),
        maxMs: pct(1),
      };
      log(
        `${figures.subscribers} subscribers, ${figures.ordersPerSecond} orders/s: ${figures.filledDeliveries.toLocaleString('en-US')} of ${figures.expectedDeliveries.toLocaleString('en-US')} FILLED records delivered, ${figures.messagesPerSecond.toLocaleString('en-US')} messages/s; delivery p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, max ${figures.maxMs} ms (target at 1,000 orders/s: p99 <= 20 ms)`,
      );
      return figures;
    } finally {
      for (const ws of sockets) ws.terminate();
      await server.stop();
    }
  },
};

function subscriber(url: string, token: string, accountId: string): Promise<WebSocket> {
  return new Promise((ready, fail) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    ws.once('error', fail);
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', channels: ['orders'], account_id: accountId })));
    ws.once('message', () => ready(ws)); // the acknowledgement
  });
}
