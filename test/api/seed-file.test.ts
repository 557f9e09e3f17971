import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED_FILE, SCOPES, loadSeedFile, parseSeed } from '../../src/api/sandbox/seed-file.js';
import { findPlanFile } from '../../src/scenario/plan-files.js';
import { makeScenarioFolder, scenarioErrorOf } from '../scenario/scenario-files.js';

const folder = makeScenarioFolder();
afterAll(() => rmSync(folder.root, { recursive: true, force: true }));

/** A valid seed; the table below changes one line of it. Line numbers matter: the messages name them. */
const VALID = `platform_admin_keys: [svc_live_admin_test]
firms:
  - slug: alpha
    name: Alpha Prop
    api_keys:
      - { key: svc_live_alpha_operator, scopes: [accounts:read, accounts:write, trading:read], role: operator }
      - { key: svc_live_alpha_viewer, scopes: [accounts:read, trading:read], role: viewer }
    plans:
      eval-50k: eval-50k-eod
      own-25k:
        starting_balance: "25000.00"
        risk_profile: { max_drawdown_mode: static, max_drawdown_value: "1000.00" }
        passing_criteria: { profit_target: "1500.00" }
    staff: [{ email: Ops@Alpha.example, first_name: Olivia }]
    accounts: [{ email: trader@alpha.example, plan_reference: own-25k, count: 2 }]
  - slug: beta
    name: Beta Futures
    api_keys:
      - { key: svc_live_beta_operator, scopes: [trading:read, trading:write], role: operator }
    plans: { eval-50k: eval-50k-static }
rate_limit: { per_second: 2.5, burst: 10 }
`;

/** VALID with `from` (which must occur) replaced by `to`, written to its own file. */
function seedWith(name: string, from: string, to: string): string {
  if (!VALID.includes(from)) throw new Error(`the base seed has no ${JSON.stringify(from)}`);
  return folder.write(`${name}.yaml`, VALID.replace(from, to));
}

describe('the bundled seed', () => {
  const seed = loadSeedFile(DEFAULT_SEED_FILE);

  it('has a platform admin key and two firms with an operator and a viewer key each', () => {
    expect(seed.platformAdminKeys).toEqual(['svc_live_platform_admin_demo']);
    expect(seed.firms.map((f) => [f.slug, f.name])).toEqual([
      ['acme-prop', 'Acme Prop'],
      ['summit-futures', 'Summit Futures'],
    ]);
    const keys = seed.firms.flatMap((f) => f.apiKeys.map((k) => [k.key, k.role, [...k.scopes].sort()]));
    const all = [...SCOPES].sort();
    const read = ['accounts:read', 'trading:read'];
    expect(keys).toEqual([
      ['svc_live_acme_operator_demo', 'operator', all],
      ['svc_live_acme_readonly_demo', 'viewer', read],
      ['svc_live_summit_operator_demo', 'operator', all],
      ['svc_live_summit_readonly_demo', 'viewer', read],
    ]);
  });

  it('resolves plan file names to the bundled templates', () => {
    const bundled = (name: string) => findPlanFile(name, DEFAULT_SEED_FILE)?.template;
    const [acme, summit] = seed.firms;
    expect([...(acme?.plans.keys() ?? [])]).toEqual(['eval-50k', 'eval-50k-intraday', 'eval-100k']);
    expect(acme?.plans.get('eval-50k')).toEqual(bundled('eval-50k-eod'));
    expect(acme?.plans.get('eval-100k')?.startingBalanceCents).toBe(10_000_000);
    expect(summit?.plans.get('eval-50k')?.riskProfile.maxDrawdownMode).toBe('static');
    expect(summit?.plans.get('eval-150k')).toEqual(bundled('eval-150k-balance'));
  });

  it('has staff and a demo trader account on eval-50k in each firm', () => {
    expect(seed.firms.map((f) => f.staff.map((s) => s.email))).toEqual([['ops@acme.example'], ['risk@summit.example']]);
    expect(seed.firms[0]?.staff[0]?.firstName).toBe('Olivia');
    expect(seed.firms.map((f) => f.accounts.map((a) => [a.email, a.planReference, a.count]))).toEqual([
      [['trader@acme.example', 'eval-50k', 1]],
      [['trader@summit.example', 'eval-50k', 1]],
    ]);
  });

  it('leaves start unset and takes the defaults of the optional keys', () => {
    expect('startMs' in seed).toBe(false);
    expect(seed).toMatchObject({
      seed: 1,
      userPassword: 'propsim-sandbox',
      rateLimit: { perSecond: 50, burst: 100 },
      failedAuthLimit: { perSecond: 1, burst: 30 },
      riskLoadDelayMs: 250,
      fillModel: { latencyMs: 0, cancelLatencyMs: 0, modifyLatencyMs: 0, slippageTicks: 0, limitFill: 'touch' },
    });
  });
});

describe('a valid seed', () => {
  const seed = loadSeedFile(seedWith('valid', '', ''));

  it('parses an inline plan template and lowercases emails', () => {
    expect(seed.firms[0]?.plans.get('own-25k')?.startingBalanceCents).toBe(2_500_000);
    expect(seed.firms[0]?.staff).toEqual([{ email: 'ops@alpha.example', firstName: 'Olivia' }]);
    expect(seed.firms[0]?.accounts).toEqual([{ email: 'trader@alpha.example', planReference: 'own-25k', count: 2 }]);
  });

  it('takes a fractional rate_limit.per_second', () => {
    expect(seed.rateLimit).toEqual({ perSecond: 2.5, burst: 10 });
  });

  it('reads rate_limit.failed_auth, and names a bad key of it', () => {
    const yaml = VALID.replace('burst: 10 }', 'burst: 10, failed_auth: { per_second: 0.5, burst: 5 } }');
    expect(yaml).not.toBe(VALID);
    expect(loadSeedFile(folder.write('failed-auth.yaml', yaml)).failedAuthLimit).toEqual({ perSecond: 0.5, burst: 5 });
    const bad = VALID.replace('burst: 10 }', 'burst: 10, failed_auth: { bursts: 5 } }');
    expect(() => loadSeedFile(folder.write('failed-auth-bad.yaml', bad))).toThrow(
      /rate_limit\.failed_auth\.bursts: unknown key; expected one of per_second, burst/,
    );
  });

  it('reads start, seed, user_password, risk_load_delay_ms and fill_model', () => {
    const extra =
      'start: 2026-03-02T09:30:00-06:00\nseed: 7\nuser_password: hunter2hunter2\nrisk_load_delay_ms: 0\n' +
      'fill_model: { latency_ms: 40 }\n';
    const loaded = loadSeedFile(folder.write('extra.yaml', VALID + extra));
    expect(loaded).toMatchObject({
      startMs: Date.parse('2026-03-02T15:30:00Z'),
      seed: 7,
      userPassword: 'hunter2hunter2',
      riskLoadDelayMs: 0,
      fillModel: { latencyMs: 40, cancelLatencyMs: 40, modifyLatencyMs: 40 },
    });
  });

  it('finds a plan file in plans/ beside the seed before the bundled one', () => {
    folder.write(
      'beside/plans/eval-50k-eod.yaml',
      'starting_balance: "12345.00"\nrisk_profile: { max_drawdown_mode: static, max_drawdown_value: "500" }\n' +
        'passing_criteria: { profit_target: "1000" }\n',
    );
    const file = folder.write('beside/seed.yaml', VALID);
    expect(loadSeedFile(file).firms[0]?.plans.get('eval-50k')?.startingBalanceCents).toBe(1_234_500);
  });

  it('parses an already-decoded document without positions', () => {
    const doc = { platform_admin_keys: [], firms: [{ slug: 'x', name: 'X', api_keys: [], plans: {} }] };
    expect(() => parseSeed(doc, 'doc.json')).toThrow(
      'doc.json: firms[0].api_keys: expected a non-empty list, each a mapping with key, scopes and role, got an empty list',
    );
  });
});

const BUNDLED_PLANS =
  'eval-100k-balance, eval-100k-eod, eval-100k-intraday, eval-100k-static, eval-150k-balance, eval-150k-eod, ' +
  'eval-150k-intraday, eval-150k-static, eval-50k-balance, eval-50k-eod, eval-50k-intraday, eval-50k-static, ' +
  'funded-50k-eod';

/** A file name for a rule: its words joined by hyphens. */
function fileNameOf(rule: string): string {
  return rule.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

describe('an invalid seed: one message naming the file, line, column and field', () => {
  // [rule, text of VALID, its replacement, the message after `FILE:`]
  it.each<[string, string, string, string]>([
    [
      'an unknown top-level key is refused',
      'rate_limit:',
      'rate_limits:',
      '21:14: rate_limits: unknown key; expected one of platform_admin_keys, firms, start, seed, user_password, rate_limit, risk_load_delay_ms, fill_model',
    ],
    [
      'an unknown firm key is refused',
      '    name: Beta Futures',
      '    name: Beta Futures\n    owner: bob',
      '18:12: firms[1].owner: unknown key; expected one of slug, name, api_keys, plans, staff, accounts',
    ],
    [
      'a role is operator or viewer',
      'role: viewer',
      'role: admin',
      '7:84: firms[0].api_keys[1].role: expected one of operator, viewer, got "admin"',
    ],
    [
      'a key has a role',
      ', role: operator }\n    plans: {',
      ' }\n    plans: {',
      '19:9: firms[1].api_keys[0].role: expected one of operator, viewer (required), got nothing',
    ],
    [
      'a scope is one of the four scopes',
      'scopes: [accounts:read, trading:read]',
      'scopes: [accounts:read, trading:admin]',
      '7:63: firms[0].api_keys[1].scopes[1]: expected one of trading:read, trading:write, accounts:read, accounts:write, got "trading:admin"',
    ],
    [
      'a scope is listed once',
      'scopes: [accounts:read, trading:read]',
      'scopes: [accounts:read, accounts:read]',
      '7:63: firms[0].api_keys[1].scopes[1]: expected a scope not already listed, got "accounts:read"',
    ],
    [
      'a key has at least one scope',
      'scopes: [accounts:read, trading:read]',
      'scopes: []',
      '7:47: firms[0].api_keys[1].scopes: expected a non-empty list, each one of trading:read, trading:write, accounts:read, accounts:write, got an empty list',
    ],
    [
      'a key appears once across firms',
      'key: svc_live_beta_operator',
      'key: svc_live_alpha_viewer',
      '19:16: firms[1].api_keys[0].key: "svc_live_alpha_viewer" is already used at firms[0].api_keys[1].key; a key may appear only once',
    ],
    [
      'a firm key is not also a platform admin key',
      'key: svc_live_beta_operator',
      'key: svc_live_admin_test',
      '19:16: firms[1].api_keys[0].key: "svc_live_admin_test" is already used at platform_admin_keys[0]; a key may appear only once',
    ],
    [
      'a key starts with svc_live_',
      'key: svc_live_alpha_viewer',
      'key: sk_live_alpha_viewer',
      '7:16: firms[0].api_keys[1].key: expected a key starting with "svc_live_" of at least 17 characters, got "sk_live_alpha_viewer"',
    ],
    [
      'a key has at least 17 characters',
      'key: svc_live_alpha_viewer',
      'key: svc_live_a',
      '7:16: firms[0].api_keys[1].key: expected a key starting with "svc_live_" of at least 17 characters, got "svc_live_a"',
    ],
    [
      'a platform admin key starts with svc_live_',
      'platform_admin_keys: [svc_live_admin_test]',
      'platform_admin_keys: [admin]',
      '1:23: platform_admin_keys[0]: expected a key starting with "svc_live_" of at least 17 characters, got "admin"',
    ],
    [
      'a slug is unique',
      'slug: beta',
      'slug: alpha',
      '16:11: firms[1].slug: expected a slug no earlier firm uses, got "alpha"',
    ],
    [
      'a slug is lowercase letters, digits and hyphens',
      'slug: beta',
      'slug: Beta',
      '16:11: firms[1].slug: expected a slug of 1 to 63 lowercase letters, digits and hyphens, not starting with a hyphen, got "Beta"',
    ],
    [
      'a firm has a name',
      '    name: Beta Futures\n',
      '',
      '16:5: firms[1].name: expected a non-empty string (required), got nothing',
    ],
    [
      'a firm has api_keys',
      '    api_keys:\n      - { key: svc_live_beta_operator, scopes: [trading:read, trading:write], role: operator }\n',
      '',
      '16:5: firms[1].api_keys: expected a list of keys (required), got nothing',
    ],
    [
      'a plan file name names a bundled plan',
      'eval-50k: eval-50k-static',
      'eval-50k: eval-50k-nope',
      `20:24: firms[1].plans.eval-50k: expected a bundled plan (${BUNDLED_PLANS}), got "eval-50k-nope"`,
    ],
    [
      'a plan is a plan file name or a template mapping',
      'eval-50k: eval-50k-static',
      'eval-50k: 5',
      '20:24: firms[1].plans.eval-50k: expected a plan file name like "eval-50k-eod" or a plan template mapping, got the number 5',
    ],
    [
      'a firm has at least one plan',
      'plans: { eval-50k: eval-50k-static }',
      'plans: {}',
      '20:12: firms[1].plans: expected a mapping of plan_reference to a plan template or a plan file name, got an empty mapping',
    ],
    [
      'an inline plan template is checked under its plan_reference',
      'max_drawdown_mode: static',
      'max_drawdown_mode: trailing',
      '12:44: firms[0].plans.own-25k.risk_profile.max_drawdown_mode: expected one of static, realtime_balance, realtime_equity, eod_balance, got "trailing"',
    ],
    [
      "an account's plan_reference is one of its firm's plans",
      'plan_reference: own-25k',
      'plan_reference: eval-100k',
      `15:63: firms[0].accounts[0].plan_reference: expected a plan_reference of the firm's plans ("eval-50k", "own-25k"), got "eval-100k"`,
    ],
    [
      'an account count is 1 to 100',
      'count: 2',
      'count: 101',
      '15:79: firms[0].accounts[0].count: expected an integer from 1 to 100, got the number 101',
    ],
    [
      'a staff email is an email address',
      'email: Ops@Alpha.example',
      'email: ops',
      '14:22: firms[0].staff[0].email: expected an email address like "trader@example.com" of at most 254 characters, got "ops"',
    ],
    [
      'staff emails are unique within a firm, whatever their case',
      'staff: [{ email: Ops@Alpha.example, first_name: Olivia }]',
      'staff: [{ email: Ops@Alpha.example }, { email: ops@alpha.EXAMPLE }]',
      '14:52: firms[0].staff[1].email: expected an email no earlier staff member of the firm uses, got "ops@alpha.EXAMPLE"',
    ],
    [
      'rate_limit.burst is an integer of at least 1',
      'burst: 10',
      'burst: 0',
      '21:39: rate_limit.burst: expected an integer of at least 1, got the number 0',
    ],
    [
      'rate_limit.per_second is greater than 0',
      'per_second: 2.5',
      'per_second: 0',
      '21:27: rate_limit.per_second: expected a number greater than 0, got the number 0',
    ],
    [
      'rate_limit has only per_second, burst and failed_auth',
      'burst: 10',
      'bursts: 10',
      '21:40: rate_limit.bursts: unknown key; expected one of per_second, burst, failed_auth',
    ],
    [
      'start is a time with an offset',
      'rate_limit:',
      'start: 2026-03-02T08:00:00\nrate_limit:',
      '21:8: start: expected an ISO 8601 time with an offset or Z (2026-03-02T17:00:00-06:00) or Unix milliseconds, got "2026-03-02T08:00:00"',
    ],
    [
      'seed is an integer of at least 0',
      'rate_limit:',
      'seed: -1\nrate_limit:',
      '21:7: seed: expected an integer of at least 0, got the number -1',
    ],
    [
      'user_password has 8 to 128 characters',
      'rate_limit:',
      'user_password: short\nrate_limit:',
      '21:16: user_password: expected a string of 8 to 128 characters, got "short"',
    ],
    [
      'risk_load_delay_ms is an integer of at least 0',
      'rate_limit:',
      'risk_load_delay_ms: 1.5\nrate_limit:',
      '21:21: risk_load_delay_ms: expected an integer of at least 0, got the number 1.5',
    ],
    [
      'fill_model is read as in scenario files',
      'rate_limit:',
      'fill_model: { limit_fill: never }\nrate_limit:',
      '21:27: fill_model.limit_fill: expected one of touch, through, got "never"',
    ],
    [
      'a YAML syntax error names its line',
      'name: Alpha Prop',
      'name: [Alpha Prop',
      '5:5: invalid YAML (BAD_INDENT): Flow sequence in block collection must be sufficiently indented and end with a ]\n\n    name: [Alpha Prop\n    api_keys:\n    ^',
    ],
  ])('%s', (rule, from, to, expected) => {
    const file = seedWith(fileNameOf(rule), from, to);
    expect(scenarioErrorOf(() => loadSeedFile(file)).message).toBe(`${file}:${expected}`);
  });

  it('platform_admin_keys is required (an empty list is fine)', () => {
    const file = seedWith('no-admin-keys', 'platform_admin_keys: [svc_live_admin_test]\n', '');
    expect(scenarioErrorOf(() => loadSeedFile(file)).message).toBe(
      `${file}: platform_admin_keys: expected a list of keys (required), got nothing`,
    );
    expect(loadSeedFile(seedWith('empty-admin-keys', '[svc_live_admin_test]', '[]')).platformAdminKeys).toEqual([]);
  });

  it('firms lists at least one firm', () => {
    const file = folder.write('no-firms.yaml', 'platform_admin_keys: []\nfirms: []\n');
    expect(scenarioErrorOf(() => loadSeedFile(file)).message).toBe(
      `${file}:2:8: firms: expected a non-empty list, each a firm mapping with slug, name, api_keys and plans, got an empty list`,
    );
  });

  it('a plan file name may name a plan file beside the seed, and the message lists them', () => {
    folder.write('with-plans/plans/house-50k.yaml', 'starting_balance: "50000"\n');
    const file = folder.write('with-plans/seed.yaml', VALID.replace('eval-50k-static', 'house-25k'));
    expect(scenarioErrorOf(() => loadSeedFile(file)).message).toBe(
      `${file}:20:24: firms[1].plans.eval-50k: expected a plan file beside it in plans/ (house-50k), or a bundled plan (${BUNDLED_PLANS}), got "house-25k"`,
    );
  });

  it('an invalid plan file names its own line', () => {
    const plan = folder.write('bad-plan/plans/house-50k.yaml', 'starting_balance: "50000"\ncurrency: usd\n');
    const file = folder.write('bad-plan/seed.yaml', VALID.replace('eval-50k-static', 'house-50k'));
    expect(scenarioErrorOf(() => loadSeedFile(file)).message).toBe(
      `${plan}:2:11: currency: expected a three-letter currency code like "USD", got "usd"`,
    );
  });

  it('a missing file cannot be read', () => {
    const file = join(folder.root, 'absent.yaml');
    expect(scenarioErrorOf(() => loadSeedFile(file)).message).toBe(`${file}: cannot read the seed file (ENOENT)`);
  });
});
