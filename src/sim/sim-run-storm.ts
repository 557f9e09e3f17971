// A storm of wrong passwords against the failed-authentication limit (docs/api.md#the-simulation,
// docs/api.md#rate-limits): sent at once from an address of their own, past the limit they are refused 429 and none
// writes a journal line. A step kind of its own because it goes to an app with a small limit, not the run's.
import { errorCode, FAULT_CODES, parsed } from './sim-answers.js';
import { expectThat } from './sim-failure.js';
import type { RunRequests } from './sim-run-requests.js';

/** The failed-authentication limit of the app that storms of wrong passwords go to. */
const STORM_LIMIT = { perSecond: 1, burst: 5 };

/**
 * `count` wrong passwords at once, from an address of their own, to an app with a small failed-authentication
 * limit (docs/api.md#rate-limits): at most its burst (and what refills meanwhile) are judged 401, the rest 429,
 * and none of them writes anything.
 */
export async function storm(run: RunRequests, count: number): Promise<void> {
  const address = `10.77.${(++run.storms >> 8) & 255}.${run.storms & 255}`;
  const firm = run.cast.firms[0]!;
  const login = {
    method: 'POST' as const,
    url: '/v1/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: firm.emails[0], password: `not ${run.cast.password}` }),
  };
  const lines = run.system.shadow.current.length;
  const startedMs = performance.now();
  const answers = await run.system.storm(
    Array.from({ length: count }, () => login),
    STORM_LIMIT,
    address,
  );
  const refilled = Math.floor(((performance.now() - startedMs) / 1000) * STORM_LIMIT.perSecond);
  run.requests += count;
  const kinds = answers.map((a) => `${a.status} ${errorCode(parsed(a)) ?? ''}`.trim());
  const judged = kinds.filter((k) => k === '401 invalid_login').length;
  const allowed = (k: string) =>
    k === '401 invalid_login' || k.startsWith('429 ') || FAULT_CODES.has(k.split(' ')[1] ?? '');
  expectThat(
    kinds.every(allowed),
    'failed-auth-limit',
    () => `a storm of ${count} wrong passwords answered ${[...new Set(kinds)].join(', ')}`,
  );
  expectThat(
    judged <= STORM_LIMIT.burst + refilled,
    'failed-auth-limit',
    () =>
      `${count} wrong passwords sent at once from ${address} were judged ${judged} times (401); ` +
      `the failed-authentication limit allows ${STORM_LIMIT.burst}${refilled > 0 ? ` and ${refilled} refilled` : ''}`,
  );
  expectThat(
    run.system.shadow.current.length === lines,
    'refusal-changed-state',
    () => `a storm of wrong passwords wrote ${run.system.shadow.current.length - lines} journal lines`,
  );
}
