// docs/api.md#keys-and-login against the app: login (bearer and cookie), refresh and logout revoking the old token,
// expiry on simulated time, users reaching only their own accounts, the request id, the viewer/operator split,
// firm headers, and the staff-role rows (404 user_not_found and role_not_found, 403 entity_mismatch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED_FILE, loadSeedFile } from '../../src/api/sandbox/seed-file.js';
import { acmeDemoTrader, KEYS, PASSWORD, sharedTestApi, startTestApi, type TestApi } from './api-harness.js';

const acme = { 'x-service-api-key': KEYS.acmeOperator };
const admin = { 'x-service-api-key': KEYS.admin };

describe('docs/api.md#keys-and-login', () => {
  const api = sharedTestApi();

  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: object) => {
    const response = await api.call({ method, url, headers, ...(payload ? { payload } : {}) });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: api.json(response),
      cookies: response.cookies,
    };
  };
  const login = (email = 'trader@acme.example', password = PASSWORD) =>
    call('POST', '/v1/auth/login', {}, { email, password });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('login answers a bearer token for 3600 simulated seconds and sets an HttpOnly session cookie', async () => {
    const answer = await login();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      user: { email: 'trader@acme.example', firm_slug: 'acme-prop' },
    });
    const cookie = answer.cookies.find((c) => c.name === 'session');
    expect(cookie).toMatchObject({ value: answer.body.access_token, httpOnly: true, sameSite: 'Lax', path: '/' });
    const { accountId } = await acmeDemoTrader(api);
    expect((await call('GET', `/v1/balances/${accountId}`, bearer(answer.body.access_token))).status).toBe(200);
    expect(
      (await call('GET', `/v1/balances/${accountId}`, { cookie: `session=${answer.body.access_token}` })).status,
    ).toBe(200);
  });

  it.each([
    ['a wrong password', 'trader@acme.example', 'not-the-password'],
    ['an unknown email', 'nobody@acme.example', PASSWORD],
  ])('%s answers 401 invalid_login', async (_name, email, password) => {
    expect(await login(email, password)).toMatchObject({ status: 401, body: { code: 'invalid_login' } });
  });

  it('a token expires after 3600 s of simulated time: 401 token_expired', async () => {
    const { body } = await login();
    const { accountId } = await acmeDemoTrader(api);
    await call('POST', '/v1/sandbox/clock/advance', admin, { by: '3599s' });
    expect((await call('GET', `/v1/balances/${accountId}`, bearer(body.access_token))).status).toBe(200);
    await call('POST', '/v1/sandbox/clock/advance', admin, { by: '1s' });
    expect(await call('GET', `/v1/balances/${accountId}`, bearer(body.access_token))).toMatchObject({
      status: 401,
      body: { code: 'token_expired' },
    });
  });

  it('refresh swaps the token (the old one is refused); logout revokes the new one', async () => {
    const old = (await login()).body.access_token;
    const { accountId } = await acmeDemoTrader(api);
    const refreshed = await call('POST', '/v1/auth/refresh', bearer(old));
    expect(refreshed.status).toBe(200);
    const fresh = refreshed.body.access_token;
    expect(fresh).not.toBe(old);
    expect((await call('GET', `/v1/balances/${accountId}`, bearer(old))).status).toBe(401);
    expect((await call('GET', `/v1/balances/${accountId}`, bearer(fresh))).status).toBe(200);
    expect(await call('POST', '/v1/auth/logout', bearer(fresh))).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call('GET', `/v1/balances/${accountId}`, bearer(fresh))).toMatchObject({
      status: 401,
      body: { code: 'invalid_credentials' },
    });
  });

  it('a reset ends every earlier session, revoked or not: 401 invalid_credentials, refresh 401, never 500', async () => {
    const { accountId } = await acmeDemoTrader(api);
    const open = (await login()).body.access_token;
    const revoked = (await login()).body.access_token;
    expect((await call('POST', '/v1/auth/logout', bearer(revoked))).status).toBe(200);
    expect((await call('POST', '/v1/sandbox/reset', admin)).status).toBe(200);
    // The seed's demo account comes back with the same id, so only the token can refuse these.
    expect(api.sandbox.kernel.read.visibleAccount({}, accountId)).toBeTruthy();
    for (const token of [open, revoked]) {
      for (const [method, url] of [
        ['GET', `/v1/accounts/${accountId}/positions`],
        ['GET', `/v1/balances/${accountId}`],
        ['POST', '/v1/auth/refresh'],
        ['POST', '/v1/auth/logout'],
      ] as const)
        expect(await call(method, url, bearer(token)), `${method} ${url}`).toMatchObject({
          status: 401,
          body: { code: 'invalid_credentials', error: expect.stringMatching(/sandbox reset/) },
        });
      expect((await call('GET', `/v1/balances/${accountId}`, { cookie: `session=${token}` })).status).toBe(401);
    }
    const again = (await login()).body.access_token;
    expect((await call('GET', `/v1/balances/${accountId}`, bearer(again))).status, 'a new login works').toBe(200);
  });

  it("a trader reaches its own accounts only: another trader's account answers 404", async () => {
    const summit = await call('GET', '/v1/firm-control/accounts', { 'x-service-api-key': KEYS.summitOperator });
    const theirs = summit.body.items[0].account_id;
    const { token, accountId } = await acmeDemoTrader(api);
    expect((await call('GET', `/v1/balances/${accountId}`, bearer(token))).status).toBe(200);
    expect(await call('GET', `/v1/balances/${theirs}`, bearer(token))).toMatchObject({
      status: 404,
      body: { code: 'account_not_found' },
    });
    const orders = await call('GET', '/v1/orders', bearer(token));
    expect(orders.body.items.every((o: { account_id: string }) => o.account_id === accountId)).toBe(true);
  });

  it.each([
    ['missing', {}, 'missing_credentials'],
    ['a key without the svc_live_ prefix', { 'x-service-api-key': 'acme_operator_demo' }, 'invalid_credentials'],
    ['an unknown key', { 'x-service-api-key': 'svc_live_unknown_key_123' }, 'invalid_credentials'],
    ['a malformed bearer', { authorization: 'Bearer not-a-token' }, 'invalid_credentials'],
    ['both headers', { ...acme, authorization: `Bearer ${KEYS.acmeOperator}` }, 'multiple_credentials'],
  ])('credentials %s → 401 %s', async (_name, headers, code) => {
    expect(await call('GET', '/v1/orders', headers as Record<string, string>)).toMatchObject({
      status: 401,
      body: { code },
    });
  });

  it('X-Request-Id: echoed when it is 1-128 characters of A-Za-z0-9._-, else a new UUID, also on errors', async () => {
    const echoed = await call('GET', '/v1/orders', { ...acme, 'x-request-id': 'client.req-42' });
    expect(echoed.headers['x-request-id']).toBe('client.req-42');
    const replaced = await call('GET', '/v1/orders', { 'x-request-id': 'has spaces' });
    expect(replaced.headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(replaced.body.request_id, 'the envelope names the same id').toBe(replaced.headers['x-request-id']);
  });

  it('firm headers: a firm key sending X-Firm-ID is 400; an admin names the firm by slug or id, an unknown one is 404', async () => {
    expect(await call('GET', '/v1/firm-control/accounts', { ...acme, 'x-firm-id': 'acme-prop' })).toMatchObject({
      status: 400,
      body: { code: 'firm_id_header_forbidden' },
    });
    const bySlug = await call('GET', '/v1/firm-control/accounts', { ...admin, 'x-firm-id': 'acme-prop' });
    expect(bySlug.status).toBe(200);
    const firmId = api.sandbox.kernel.read.firm('acme-prop')!.firm_id;
    const byId = await call('GET', '/v1/firm-control/accounts', { ...admin, 'x-firm-id': firmId });
    expect(byId.body).toEqual(bySlug.body);
    expect(await call('GET', '/v1/firm-control/accounts', { ...admin, 'x-firm-id': 'nope-prop' })).toMatchObject({
      status: 404,
      body: { code: 'firm_not_found' },
    });
  });

  describe('staff roles', () => {
    const staffId = async () => (await login('ops@acme.example')).body.user.user_id as string;

    it('assign answers a role id (the same one again for the same role); remove needs it; unknown ones are 404', async () => {
      const userId = await staffId();
      const assigned = await call('POST', '/v1/firm-control/staff/roles/assign', acme, {
        user_id: userId,
        role_name: 'support',
      });
      expect(assigned).toMatchObject({ status: 200, body: { status: 'ok', role_id: expect.any(String) } });
      const again = await call('POST', '/v1/firm-control/staff/roles/assign', acme, {
        user_id: userId,
        role_name: 'support',
      });
      expect(again.body.role_id).toBe(assigned.body.role_id);
      const unknownRole = '00000000-0000-4000-8000-000000000000';
      expect(
        await call('POST', '/v1/firm-control/staff/roles/remove', acme, { user_id: userId, role_id: unknownRole }),
      ).toMatchObject({ status: 404, body: { code: 'role_not_found' } });
      expect(
        await call('POST', '/v1/firm-control/staff/roles/remove', acme, {
          user_id: userId,
          role_id: assigned.body.role_id,
        }),
      ).toMatchObject({ status: 200, body: { status: 'ok' } });
      const { userId: trader } = await acmeDemoTrader(api);
      expect(
        await call('POST', '/v1/firm-control/staff/roles/assign', acme, { user_id: trader, role_name: 'support' }),
        'a trader is not a staff member',
      ).toMatchObject({ status: 404, body: { code: 'user_not_found' } });
    });

    it("X-Firm-Entity-Slug must be the caller's firm: another firm's slug is 403 entity_mismatch", async () => {
      const userId = await staffId();
      const body = { user_id: userId, role_name: 'viewer' };
      expect(
        await call(
          'POST',
          '/v1/firm-control/staff/roles/assign',
          { ...acme, 'x-firm-entity-slug': 'summit-futures' },
          body,
        ),
      ).toMatchObject({ status: 403, body: { code: 'entity_mismatch' } });
      expect(
        (
          await call(
            'POST',
            '/v1/firm-control/staff/roles/assign',
            { ...acme, 'x-firm-entity-slug': 'acme-prop' },
            body,
          )
        ).status,
      ).toBe(200);
    });
  });
});

describe('docs/api.md#keys-and-login: a viewer key that holds accounts:write is still refused writes', () => {
  let api: TestApi;
  const viewerWithWrite = 'svc_live_acme_viewer_with_write';

  beforeAll(async () => {
    const seed = loadSeedFile(DEFAULT_SEED_FILE);
    const [acmeFirm, ...others] = seed.firms;
    api = await startTestApi({
      seed: {
        ...seed,
        rateLimit: { perSecond: 1e6, burst: 1e6 },
        firms: [
          {
            ...acmeFirm!,
            apiKeys: [
              ...acmeFirm!.apiKeys,
              { key: viewerWithWrite, role: 'viewer', scopes: ['accounts:read', 'accounts:write'] },
            ],
          },
          ...others,
        ],
      },
    });
  });
  afterAll(() => api.close());

  it('provisioning is allowed; a lockout answers 403 operator_required', async () => {
    const headers = { 'x-service-api-key': viewerWithWrite };
    const provisioned = await api.call({
      method: 'POST',
      url: '/v1/firm-control/accounts',
      headers,
      payload: { user: { email: 'v@example.com' }, plan_reference: 'eval-50k' },
    });
    expect(provisioned.statusCode).toBe(201);
    const lockout = await api.call({
      method: 'POST',
      url: `/v1/accounts/${api.json(provisioned).account_ids[0]}/lockout`,
      headers,
      payload: {},
    });
    expect(lockout.statusCode).toBe(403);
    expect(api.json(lockout).code).toBe('operator_required');
  });
});
