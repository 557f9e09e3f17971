// WebSocket fan-out: a real `propsim serve` process and SUBSCRIBERS sockets of one trader following the
// `orders` channel of their account, while orders are placed and filled at a steady rate: every TICK_MS, the
// tick's orders are posted together and then one print fills them. Delivery latency is from the moment that print
// is sent to the moment each socket receives each FILLED record. The bar is 1,000 subscribers x 1,000
// orders/s with p99 <= 20 ms. The subscribers run in this process, on the same two cores as the server, as lean
// clients that count frames without decoding them (raw-subscriber.ts): far cheaper than ws clients, they still keep
// this process's loop busy at these rates (a read of a socket costs Node's stream machinery and the kernel's
// loopback more than the bytes), so the figures say what rate was offered and what was reached, with each
// process's CPU split into its own code (user) and the kernel's work for it (system: mostly the sockets).
import type { Socket } from 'node:net';
import { benchSeedFile, cpuSplitMs, startServer } from './api.bench.js';
import type { Bench } from './bench.js';
import { newDeliveries, percentile, rawSubscriber } from './raw-subscriber.js';

const SUBSCRIBERS = 1_000;
const RATES = (process.env.PROPSIM_BENCH_ORDERS_PER_SECOND ?? '100,1000').split(',').map(Number);
const DURATION_S = 5;
// At most 10 working orders a side (the plan below): 20 a tick, alternating sides, all filled by the tick's print.
const TICK_MS = 20;
/**
 * The seed, with the demo trader's plan free of commission (a thousand round turns a second at one price would
 * otherwise reach the daily loss limit, and the account's lock, within half a second) and 10 contracts a side.
 */
const FREE_OF_COMMISSION = {
  name: 'free-of-commission',
  change: (seed: string) => {
    if (!seed.includes('eval-50k: eval-50k-eod')) throw new Error('the bundled seed no longer names eval-50k-eod');
    return seed.replace(
      'eval-50k: eval-50k-eod',
      `eval-50k: { starting_balance: "50000.00", currency: USD, commission_per_contract: "0", position_limits: { max_contracts: 10 }, risk_profile: { max_drawdown_mode: eod_balance, max_drawdown_value: "2000.00", max_drawdown_limit: "0", daily_loss_value: "1000.00" }, passing_criteria: { profit_target: "3000.00", min_trading_days: 5, consistency_pct: "40" }, enabled_families: [equity_index], trading_sessions: [cme_globex] }`,
    );
  },
};
const KEY = 'svc_live_acme_operator_demo';
const ADMIN = 'svc_live_platform_admin_demo';

export const streamsBench: Bench = {
  name: 'streams',
  description: `WebSocket fan-out: ${SUBSCRIBERS.toLocaleString('en-US')} subscribers of /v1/ws, ${RATES.join(' and ')} orders/s filled for ${DURATION_S} s each, delivery latency of each FILLED record`,
  async run(log) {
    const figures: Record<string, unknown> = {};
    for (const rate of RATES) figures[`ordersPerSecond${rate}`] = await fanOut(rate, log);
    return figures;
  },
};

async function fanOut(ordersPerSecond: number, log: (line: string) => void): Promise<Record<string, unknown>> {
  const server = await startServer(['--memory'], benchSeedFile(FREE_OF_COMMISSION));
  const sockets: Socket[] = [];
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
    const deliveries = newDeliveries();
    const wsUrl = server.url.replace('http://', 'ws://') + '/v1/ws';
    for (let batch = 0; batch < SUBSCRIBERS; batch += 100) {
      const opened = await Promise.all(
        Array.from({ length: Math.min(100, SUBSCRIBERS - batch) }, () =>
          rawSubscriber(wsUrl, token, accountId, printSentAt, deliveries),
        ),
      );
      sockets.push(...opened);
    }
    log(`  ${ordersPerSecond} orders/s offered, ${sockets.length} sockets subscribed`);

    const perTick = Math.max(1, Math.round((ordersPerSecond * TICK_MS) / 1000));
    const cpuBefore = cpuSplitMs(server.pid);
    const clientCpuBefore = process.cpuUsage();
    const clientLoopBefore = performance.eventLoopUtilization();
    const started = performance.now();
    let placed = 0;
    for (let tick = 0; tick < (DURATION_S * 1000) / TICK_MS; tick++) {
      const orders = await Promise.all(
        Array.from({ length: perTick }, () =>
          api(
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
          ),
        ),
      );
      const now = performance.now();
      for (const order of orders) printSentAt.set(order.order_id as string, now);
      await api(
        'POST',
        '/v1/sandbox/market/prints',
        { 'X-Service-Api-Key': ADMIN },
        { prints: [{ instrument_id: 'ESM6', price: '5000.00' }] },
      );
      const wait = started + (tick + 1) * TICK_MS - performance.now();
      if (wait > 0) await new Promise((settle) => setTimeout(settle, wait));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = cpuSplitMs(server.pid);
    const percentOf = (ms: number) => Math.round(ms / 10 / seconds);
    const clientCpuUs = process.cpuUsage(clientCpuBefore);
    const clientLoop = performance.eventLoopUtilization(clientLoopBefore);
    await new Promise((settle) => setTimeout(settle, 1000)); // the last deliveries
    const result = {
      subscribers: sockets.length,
      ordersOffered: ordersPerSecond,
      ordersPerSecond: Math.round(placed / seconds),
      filledDeliveries: deliveries.filled,
      expectedDeliveries: placed * sockets.length,
      framesPerSecond: Math.round(deliveries.frames / seconds),
      readsPerSecond: Math.round(deliveries.reads / seconds),
      serverUserCpuPercent: percentOf(cpuAfter.userMs - cpuBefore.userMs),
      serverSystemCpuPercent: percentOf(cpuAfter.systemMs - cpuBefore.systemMs),
      clientUserCpuPercent: percentOf(clientCpuUs.user / 1000),
      clientSystemCpuPercent: percentOf(clientCpuUs.system / 1000),
      clientLoopBusyPercent: Math.round(clientLoop.utilization * 100),
      p50Ms: percentile(deliveries, 0.5),
      p99Ms: percentile(deliveries, 0.99),
      maxMs: percentile(deliveries, 1),
    };
    log(
      `${result.subscribers} subscribers, ${result.ordersPerSecond} orders/s (${ordersPerSecond} offered): ${result.filledDeliveries.toLocaleString('en-US')} of ${result.expectedDeliveries.toLocaleString('en-US')} FILLED records delivered, ${result.framesPerSecond.toLocaleString('en-US')} frames/s in ${result.readsPerSecond.toLocaleString('en-US')} reads/s, CPU (user + system) server ${result.serverUserCpuPercent} + ${result.serverSystemCpuPercent} %, subscribers and load ${result.clientUserCpuPercent} + ${result.clientSystemCpuPercent} % (their loop busy ${result.clientLoopBusyPercent} % of the time); delivery p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms (target at 1,000 orders/s: p99 <= 20 ms)`,
    );
    return result;
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.stop();
  }
}
