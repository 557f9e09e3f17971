// docs/api.md#errors against hostile bodies: any body answers a 4xx in the envelope, never a 5xx — arrays or objects
// nested thousands deep, a 900 KB string, a gzip body, bytes that are not UTF-8 — and what an error message echoes of
// the input is bounded (docs/api.md#what-an-error-echoes) and escaped, so a refusal is never larger than a few KB
// nor carries control characters or undecodable bytes.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/api/gateway/body-depth.js';
import { MAX_FIELD_PROBLEMS } from '../../src/core/validation/body-check.js';
import { ECHO_MAX_CHARS } from '../../src/core/validation/echo.js';
import { acmeDemoTrader, KEYS, marketOrderBody, startTestApi, stateDigest, type TestApi } from './api-harness.js';

const acme = { 'x-service-api-key': KEYS.acmeOperator, 'content-type': 'application/json' };
/** An answer that echoes at most ECHO_MAX_CHARS per echoed value stays well under this. */
const SMALL_ANSWER = 16 * 1024;
/** Control characters (but the JSON escapes of the answer's own text), and U+FFFD, the mark of undecodable bytes. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\ufffd]/;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());
beforeEach(() => api.sandbox.reset());

async function post(url: string, payload: string | Buffer, headers: Record<string, string> = acme) {
  const before = stateDigest(api.sandbox);
  const answer = await api.call({ method: 'POST', url, headers, payload });
  const body = api.json(answer);
  expect(Object.keys(body)[0], `${answer.body.slice(0, 200)}`).toBe('error');
  expect(stateDigest(api.sandbox), 'a refused body changes nothing').toBe(before);
  expect(answer.body.length, 'the answer is small').toBeLessThan(SMALL_ANSWER);
  for (const text of [
    body.error,
    ...(body.details ?? []).flatMap((d: { field: string; message: string }) => [d.field, d.message]),
  ])
    expect(text, 'no control character or undecodable byte').not.toMatch(UNPRINTABLE);
  return { status: answer.statusCode, body };
}

const nested = (open: string, inner: string, close: string, depth: number) =>
  open.repeat(depth) + inner + close.repeat(depth);

describe('docs/api.md#errors: a hostile body answers a 4xx, never a 5xx', () => {
  it.each([
    ['arrays 5,000 deep', nested('[', '', ']', 5000)],
    ['objects 5,000 deep', nested('{"a":', '1', '}', 5000)],
    ['arrays 300,000 deep inside a field', `{"account_id":${nested('[', '', ']', 300_000)}}`],
    ['a field nested just past the limit', `{"account_id":${nested('[', '1', ']', MAX_BODY_DEPTH)}}`],
  ])('%s: 400 invalid_request naming the depth', async (_what, payload) => {
    const { status, body } = await post('/v1/orders', payload);
    expect([status, body.code]).toEqual([400, 'invalid_request']);
    expect(body.error).toMatch(new RegExp(`nested more than ${MAX_BODY_DEPTH} levels deep`));
  });

  it('a body nested as deep as the limit is read as usual (its fields are judged)', async () => {
    const { status, body } = await post('/v1/orders', `{"account_id":${nested('[', '1', ']', MAX_BODY_DEPTH - 1)}}`);
    expect([status, body.code]).toEqual([400, 'invalid_request']);
    expect(body.details.map((d: { field: string }) => d.field)).toContain('account_id');
  });

  it('a string in a brace or a bracket does not count as nesting', async () => {
    const { status, body } = await post('/v1/orders', JSON.stringify({ account_id: '['.repeat(5000) }));
    expect([status, body.code]).toEqual([400, 'invalid_request']);
    expect(body.error).not.toMatch(/nested/);
  });

  it.each([
    ['/v1/orders', { account_id: 'x'.repeat(900_000) }],
    ['/v1/orders', { quantity: 'x'.repeat(900_000) }],
    ['/v1/orders', { ['k'.repeat(900_000)]: 1 }],
    ['/v1/firm-control/accounts', { user: { email: 'y'.repeat(900_000) }, plan_reference: 'eval-50k' }],
    ['/v1/sandbox/market/prints', { prints: [{ instrument_id: 'z'.repeat(900_000), price: '1.00' }] }],
  ])('a 900 KB value or key on %s is echoed bounded', async (url, payload) => {
    const headers = url.startsWith('/v1/sandbox') ? { ...acme, 'x-service-api-key': KEYS.admin } : acme;
    const { status, body } = await post(url, JSON.stringify(payload), headers);
    expect(status).toBe(400);
    expect(body.error).toMatch(/… \(900,0\d\d characters\)/);
  });

  it(`an echoed value keeps its first ${ECHO_MAX_CHARS} characters and says how long it was`, async () => {
    const { body } = await post('/v1/orders', JSON.stringify({ account_id: 'x'.repeat(1000) }));
    const detail = body.details.find((d: { field: string }) => d.field === 'account_id');
    expect(detail.message).toBe(
      `expected a lowercase hyphenated UUID, got "${'x'.repeat(ECHO_MAX_CHARS - 1)}… (1,002 characters)`,
    );
  });

  it('many unknown fields are refused (each described one is named), up to a bound', async () => {
    const valid = { account_id: '00000000-0000-4000-8000-000000000000', instrument_id: 'ESM6', side: 'buy' };
    const unknown = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    const payload = JSON.stringify({ ...valid, type: 'market', quantity: 1, time_in_force: 'day', ...unknown });
    const { status, body } = await post('/v1/orders', payload);
    expect([status, body.code]).toEqual([400, 'invalid_request']);
    expect(body.details.length).toBeGreaterThan(0);
    expect(body.details.length).toBeLessThanOrEqual(MAX_FIELD_PROBLEMS);
    for (const detail of body.details)
      expect(detail).toMatchObject({
        field: expect.stringMatching(/^k\d+$/),
        message: expect.stringMatching(/^unknown field/),
      });
  });

  it('a gzip body is 415 unsupported_media_type: bodies are sent uncompressed', async () => {
    const payload = gzipSync(JSON.stringify({ account_id: 'x' }));
    const { status, body } = await post('/v1/orders', payload, { ...acme, 'content-encoding': 'gzip' });
    expect([status, body.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('a binary body is 400 invalid_json, its bytes escaped in the message', async () => {
    const payload = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x00, 0x07, 0x7b]);
    const { status, body } = await post('/v1/orders', payload);
    expect([status, body.code]).toEqual([400, 'invalid_json']);
    expect(body.error).toMatch(/\\u001f/);
  });

  it('a string of bytes that are not UTF-8, or of control characters, is echoed escaped', async () => {
    const payload = Buffer.concat([
      Buffer.from('{"account_id":"'),
      Buffer.from([0xff, 0xfe, 0x80]),
      Buffer.from('\\u0007\\u202e"}'),
    ]);
    const { status, body } = await post('/v1/orders', payload);
    expect(status).toBe(400);
    expect(body.error).toContain('\\ufffd\\ufffd\\ufffd\\u0007\\u202e');
  });

  it('a long path is echoed bounded in route_not_found', async () => {
    const answer = await api.call({ method: 'GET', url: `/v1/${'p'.repeat(8000)}`, headers: acme });
    expect([answer.statusCode, api.json(answer).code]).toEqual([404, 'route_not_found']);
    expect(answer.body.length).toBeLessThan(1024);
  });

  it('a long X-Firm-ID of an admin is echoed bounded in firm_not_found', async () => {
    const answer = await api.call({
      method: 'GET',
      url: '/v1/orders',
      headers: { 'x-service-api-key': KEYS.admin, 'x-firm-id': 'f'.repeat(8000) },
    });
    expect([answer.statusCode, api.json(answer).code]).toEqual([404, 'firm_not_found']);
    expect(answer.body.length).toBeLessThan(1024);
  });

  it("valid orders still place after all of it (the trader's too)", async () => {
    const { accountId } = await acmeDemoTrader(api);
    await api.call({
      method: 'POST',
      url: '/v1/sandbox/clock/advance',
      headers: { 'x-service-api-key': KEYS.admin },
      payload: { by: '1s' },
    });
    const placed = await api.call({
      method: 'POST',
      url: '/v1/orders',
      headers: acme,
      payload: JSON.stringify(marketOrderBody(accountId)),
    });
    expect(placed.statusCode).toBe(202);
  });
});
