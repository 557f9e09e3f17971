// `serve --clock realtime` (docs/api.md#start-up): the simulated clock follows a wall clock (here a fake one) times
// the speed, and the kernel moves only when something falls due or a request comes, so an idle sandbox journals
// nothing however long it runs (docs/api.md#persistence).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { RealtimeClock } from '../../src/api/sandbox/realtime-clock.js';
import { KEYS, startTestApi, type TestApi } from './api-harness.js';

let api: TestApi;
let wall = 1_000_000;
const errors: unknown[] = [];

beforeEach(async () => {
  api = await startTestApi({ clockMode: 'realtime' });
  wall = 1_000_000;
  errors.length = 0;
});
afterEach(() => api.close());

const clockAt = (speed: number) =>
  new RealtimeClock(
    api.sandbox,
    speed,
    (e) => errors.push(e),
    () => wall,
  );
const inputLines = () =>
  api.sandbox.kernel.journal
    .text()
    .split('\n')
    .filter((l) => l.includes('"type":"input.')).length;

describe('RealtimeClock', () => {
  it('follows the wall clock times the speed: 1 s of wall at x60 is a simulated minute', () => {
    const start = api.sandbox.kernel.nowMs;
    const clock = clockAt(60);
    wall += 1000;
    expect(clock.nowMs()).toBe(start + 60_000);
  });

  it('an idle sandbox journals nothing: steps with nothing due leave the kernel where it is', async () => {
    const clock = clockAt(1);
    wall += 1000; // past the seed accounts' 250 ms risk loading: due
    await clock.step();
    const settledAt = api.sandbox.kernel.nowMs;
    expect(settledAt).toBe(api.sandbox.config.startMs + 1000);
    const lines = inputLines();
    for (let minute = 1; minute <= 60; minute++) {
      wall += 60_000;
      expect(clock.step()).toBeUndefined(); // the next timer is the 17:00 CT session roll
    }
    expect(api.sandbox.kernel.nowMs).toBe(settledAt);
    expect(inputLines()).toBe(lines);
    expect(clock.nowMs()).toBe(settledAt + 3_600_000);
    expect(errors).toEqual([]);
  });

  it("a timer falling due moves the kernel: a new account's risk loading ends by the wall clock", async () => {
    const clock = clockAt(1);
    wall += 1000;
    await clock.step();
    const operator = { 'x-service-api-key': KEYS.acmeOperator };
    const provisioned = await api.call({
      method: 'POST',
      url: '/v1/firm-control/accounts',
      headers: operator,
      payload: { user: { email: 'realtime@example.com' }, plan_reference: 'eval-50k' },
    });
    const accountId = api.json(provisioned).account_ids[0] as string;
    const riskState = () =>
      api.call({ method: 'GET', url: `/v1/firm-control/accounts/${accountId}/risk-state`, headers: operator });
    expect((await riskState()).statusCode).toBe(503); // loading for 250 ms of simulated time
    wall += 100;
    expect(clock.step()).toBeUndefined(); // not yet due
    wall += 200;
    await clock.step();
    expect((await riskState()).statusCode).toBe(200);
  });

  it('a request catches the kernel up to the wall first; a manual advance ahead of it is where the clock goes on from', async () => {
    const clock = clockAt(1);
    wall += 30_000;
    await clock.catchUp();
    expect(api.sandbox.kernel.nowMs).toBe(api.sandbox.config.startMs + 30_000);
    expect(clock.catchUp()).toBeUndefined(); // already there: nothing journaled

    const ahead = api.sandbox.kernel.nowMs + 3_600_000;
    await api.sandbox.advanceTo(() => ahead);
    expect(clock.nowMs()).toBe(ahead);
    wall += 1000;
    expect(clock.nowMs()).toBe(ahead + 1000);
  });

  it('a reset holds: the clock follows the wall from the start again, and no step catches up to the old time', async () => {
    const clock = clockAt(1);
    const start = api.sandbox.config.startMs;
    wall += 60_000;
    await clock.catchUp();
    expect(api.sandbox.kernel.nowMs).toBe(start + 60_000);
    await api.sandbox.reset();
    expect(api.sandbox.kernel.nowMs).toBe(start);
    wall += 1000;
    expect(clock.nowMs(), 'a second of wall after the reset').toBe(start + 1000);
    await clock.step(); // the seed accounts' risk loading (250 ms) is due
    await clock.catchUp();
    expect(api.sandbox.kernel.nowMs).toBe(start + 1000);
  });

  it('a step that comes while a reset is under way does not carry the new kernel to the old time', async () => {
    const clock = clockAt(1);
    const start = api.sandbox.config.startMs;
    wall += 60_000;
    const resetting = api.sandbox.reset();
    const stepping = clock.step(); // due: the seed accounts' risk loading
    await Promise.all([stepping, resetting]);
    expect(api.sandbox.kernel.nowMs).toBe(start);
    expect(errors).toEqual([]);
  });

  it('a request the gateway refuses after catching the clock up gets its answer (it hung, with an unhandled rejection)', async () => {
    const clock = clockAt(1);
    const app = await buildApp({ sandbox: api.sandbox, realtime: clock });
    try {
      wall += 5000; // the request has the kernel to catch up first
      const refused = await app.inject({
        method: 'POST',
        url: '/v1/orders',
        headers: { 'x-service-api-key': KEYS.acmeViewer },
        payload: {},
      });
      expect(refused.statusCode).toBe(403);
      expect(JSON.parse(refused.body).code).toBe('missing_scope');
      expect(api.sandbox.kernel.nowMs).toBe(api.sandbox.config.startMs + 5000);
    } finally {
      await app.close();
    }
  });
});
