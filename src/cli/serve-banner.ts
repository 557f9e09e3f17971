// What `propsim serve` prints on stderr once it listens (docs/api.md#start-up): the URL (its own line, for scripts:
// `listening on http://HOST:PORT`), the docs page, the dashboard, the clock, the store, every key of the seed and a
// demo login.
import type { Sandbox } from '../api/sandbox/sandbox.js';
import type { SandboxSeed } from '../api/sandbox/seed-file.js';

export interface BannerFacts {
  host: string;
  port: number;
  seedFile: string;
  seed: SandboxSeed;
  sandbox: Sandbox;
  speed: number;
}

export function serveBanner({ host, port, seedFile, seed, sandbox, speed }: BannerFacts): string {
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const clock = sandbox.clock();
  const lines = [
    `propsim sandbox: ${seed.firms.length} firm${seed.firms.length === 1 ? '' : 's'} from ${seedFile}`,
    `listening on ${url}`,
    `docs: ${url}/docs (OpenAPI 3.1 at ${url}/openapi.json)`,
    `dashboard: ${url}/dashboard (a firm's accounts, live: type one of the firm keys below)`,
    `clock: ${clock.mode}${clock.mode === 'realtime' ? ` x${speed}` : ''}, at ${clock.now} (trade date ${clock.trade_date}, market ${clock.is_open ? 'open' : 'closed'})`,
    sandbox.durableFile
      ? `state: ${sandbox.durableFile} (a restart on it goes on from here; --memory keeps nothing)`
      : 'state: in memory (--memory), lost when the server stops',
    '',
    'keys (send as X-Service-Api-Key):',
  ];
  for (const firm of seed.firms)
    for (const k of firm.apiKeys) lines.push(`  ${firm.slug.padEnd(20)} ${k.role.padEnd(9)} ${k.key}`);
  for (const k of seed.platformAdminKeys)
    lines.push(
      `  ${'platform admin'.padEnd(20)} ${'admin'.padEnd(9)} ${k}   (X-Firm-ID names a firm; sandbox control)`,
    );
  const demo =
    seed.firms.flatMap((f) => f.accounts.map((a) => a.email))[0] ??
    seed.firms.flatMap((f) => f.staff.map((s) => s.email))[0];
  if (demo) lines.push('', `login: POST ${url}/v1/auth/login {"email":"${demo}","password":"${seed.userPassword}"}`);
  lines.push(
    '',
    `try: curl -s ${url}/v1/firm-control/accounts -H 'X-Service-Api-Key: ${seed.firms[0]?.apiKeys[0]?.key ?? ''}'`,
    'stop: Ctrl-C',
    '',
  );
  return lines.join('\n');
}
