// docs/api.md#the-openapi-document: the bodies the document shows as a `oneOf` of forms (an order by its type, the
// clock advance's one target, provisioning's user or user_id; src/api/openapi/request-forms.ts) accept exactly the
// bodies the routes accept. Random bodies, well and badly formed, go to the real routes; the route refuses one with
// 400 invalid_request exactly when the document's schema (Ajv) refuses it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, key, startTestApi, type TestApi } from './api-harness.js';
import { schemaValidators } from './openapi-responses.js';

type Json = Record<string, unknown>;

let api: TestApi;
let document: Json;
let validatorAt: ReturnType<typeof schemaValidators>;
let accountId: string;
let userId: string;

beforeAll(async () => {
  api = await startTestApi();
  document = api.json(await api.call({ method: 'GET', url: '/openapi.json' }));
  validatorAt = schemaValidators(document);
  const made = api.json(
    await api.call({
      method: 'POST',
      url: '/v1/firm-control/accounts',
      headers: key(KEYS.acmeOperator),
      payload: { user: { email: 'forms@example.com' }, plan_reference: 'eval-50k' },
    }),
  );
  accountId = made.account_ids[0];
  userId = made.user_id;
});
afterAll(() => api.close());

/** Each key of `fields` present or not (even odds), with one of its values. */
function bodies(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Json> {
  const entries = Object.entries(fields).map(([name, value]) =>
    fc.option(
      value.map((v) => [name, v] as const),
      { freq: 2 },
    ),
  );
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter((p) => p !== null)));
}

/** A well-formed value four times in five, else a malformed one. */
function mostly(valid: readonly unknown[], malformed: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...valid), weight: 4 },
    { arbitrary: fc.constantFrom(...malformed), weight: 1 },
  );
}

/** Runs `runs` bodies through the route and the schema; answers the ones where they disagree. */
async function disagreements(
  arbitrary: fc.Arbitrary<Json>,
  send: (body: Json) => Promise<{ statusCode: number; body: string }>,
  schema: string,
  runs: number,
  validators = validatorAt,
): Promise<string[]> {
  const validate = validators(`/components/schemas/${schema}`);
  const found: string[] = [];
  let accepted = 0;
  for (const body of fc.sample(arbitrary, { numRuns: runs, seed: 52 })) {
    const answer = await send(body);
    const refused = answer.statusCode === 400 && JSON.parse(answer.body).code === 'invalid_request';
    const valid = validate(body) === true;
    if (valid) accepted++;
    if (refused === valid) found.push(`${JSON.stringify(body)}: route ${answer.statusCode}, schema ${valid}`);
  }
  if (accepted < runs / 10) found.push(`only ${accepted} of ${runs} bodies are valid: too few to compare`);
  return found;
}

/** The body with the prices its type needs, and no others (a random body rarely has them). */
function pricedForItsType(body: Json): Json {
  const { limit_price: _limit, stop_price: _stop, ...rest } = body;
  const needs = { market: [], limit: ['limit_price'], stop: ['stop_price'], stop_limit: ['limit_price', 'stop_price'] };
  const prices = needs[body.type as keyof typeof needs] ?? [];
  return { ...rest, ...Object.fromEntries(prices.map((name) => [name, '4990.25'])) };
}

const price = mostly(['5000.00', '4990.25'], [4990, 'cheap']);

/** Orders of every type, with and without their prices, some malformed. */
function orderBodies(): {
  arbitrary: fc.Arbitrary<Json>;
  send: (body: Json) => Promise<{ statusCode: number; body: string }>;
} {
  const arbitrary = bodies({
    account_id: fc.constant(accountId),
    instrument_id: fc.constant('ESM6'),
    side: mostly(['buy', 'sell'], ['hold']),
    type: mostly(['market', 'limit', 'stop', 'stop_limit'], ['iceberg']),
    quantity: mostly([1, 2], [0, '1']),
    limit_price: price,
    stop_price: price,
    time_in_force: mostly(['day', 'gtc'], ['forever']),
    client_order_id: mostly(['c-1'], ['']),
  })
    .map((body) => ({ account_id: accountId, instrument_id: 'ESM6', side: 'buy', quantity: 1, ...body }))
    .chain((body) => fc.oneof(fc.constant(body), fc.constant(pricedForItsType(body))));
  const send = (body: Json) =>
    api.call({ method: 'POST', url: '/v1/orders', headers: key(KEYS.acmeOperator), payload: body });
  return { arbitrary, send };
}

describe('docs/api.md#the-openapi-document: request bodies as forms', () => {
  it('PlaceOrderRequest: an order type with the prices it needs, and no other', async () => {
    const { arbitrary, send } = orderBodies();
    expect(await disagreements(arbitrary, send, 'PlaceOrderRequest', 300)).toEqual([]);
  }, 60_000);

  it('names the bodies a form gets wrong, so the checks above can fail', async () => {
    const broken = structuredClone(document) as { components: { schemas: Record<string, Json> } };
    const limit = broken.components.schemas.LimitOrderRequest!;
    limit.required = (limit.required as string[]).filter((name) => name !== 'limit_price');
    const { arbitrary, send } = orderBodies();
    const found = await disagreements(arbitrary, send, 'PlaceOrderRequest', 100, schemaValidators(broken));
    expect(found).toEqual(expect.arrayContaining([expect.stringMatching(/"type":"limit".*route 400, schema true/)]));
  }, 60_000);

  it('ClockAdvanceRequest: exactly one of to, by, to_next', async () => {
    const arbitrary = bodies({
      to: mostly([1_000, '2020-01-01T00:00:00Z'], [true]),
      by: mostly(['0ms', '0s'], ['soon']),
      to_next: mostly(['session_close'], ['never']),
    }).chain((body) => fc.oneof({ arbitrary: fc.constant(body), weight: 7 }, fc.constant({ ...body, until: 1 })));
    const send = (body: Json) =>
      api.call({ method: 'POST', url: '/v1/sandbox/clock/advance', headers: key(KEYS.admin), payload: body });
    expect(await disagreements(arbitrary, send, 'ClockAdvanceRequest', 150)).toEqual([]);
  }, 60_000);

  it('ProvisionAccountsRequest: exactly one of user and user_id', async () => {
    let n = 0;
    const arbitrary = bodies({
      user: mostly([{ email: 'x' }], [{ name: 'x' }, 'x']).map((user) =>
        typeof user === 'object' && user !== null && 'email' in user ? { email: `forms-${++n}@example.com` } : user,
      ),
      user_id: mostly([userId], ['someone']),
      plan_reference: mostly(['eval-50k'], ['']),
      count: mostly([1], [0]),
    });
    const send = (body: Json) =>
      api.call({ method: 'POST', url: '/v1/firm-control/accounts', headers: key(KEYS.acmeOperator), payload: body });
    expect(await disagreements(arbitrary, send, 'ProvisionAccountsRequest', 150)).toEqual([]);
  }, 60_000);
});
