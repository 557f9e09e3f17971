// What `propsim serve` prints once it listens (docs/api.md#start-up), from a real sandbox of the bundled seed (two
// firms) and of that seed cut to its first firm: the URLs, the clock, the store and every key, and the firms counted
// as words do ("1 firm", "2 firms").
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED_FILE } from '../../src/api/sandbox/seed-file.js';
import { serveBanner } from '../../src/cli/serve-banner.js';
import { startTestApi, testSeed } from '../api/api-harness.js';

async function bannerOf(firms: number): Promise<string> {
  const seed = testSeed();
  const cut = { ...seed, firms: seed.firms.slice(0, firms) };
  const api = await startTestApi({ seed: cut });
  try {
    return serveBanner({
      host: '127.0.0.1',
      port: 8080,
      seedFile: DEFAULT_SEED_FILE,
      seed: cut,
      sandbox: api.sandbox,
      speed: 1,
    });
  } finally {
    await api.close();
  }
}

describe('serve banner', () => {
  it('gives the URLs, the clock, the store and every key; the firms counted in words', async () => {
    const two = await bannerOf(2);
    expect(two.split('\n').slice(0, 6)).toEqual([
      `propsim sandbox: 2 firms from ${DEFAULT_SEED_FILE}`,
      'listening on http://127.0.0.1:8080',
      'docs: http://127.0.0.1:8080/docs (OpenAPI 3.1 at http://127.0.0.1:8080/openapi.json)',
      "dashboard: http://127.0.0.1:8080/dashboard (a firm's accounts, live: type one of the firm keys below)",
      'clock: manual, at 2026-03-02T08:00:00.000-06:00 (trade date 2026-03-02, market open)',
      'state: in memory (--memory), lost when the server stops',
    ]);
    expect(two).toContain('summit-futures');
    const one = await bannerOf(1);
    expect(one.split('\n')[0]).toBe(`propsim sandbox: 1 firm from ${DEFAULT_SEED_FILE}`);
    expect(one).toContain('acme-prop');
    expect(one).not.toContain('summit-futures');
  });
});
