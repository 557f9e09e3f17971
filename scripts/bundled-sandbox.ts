// A sandbox of the bundled seed at its start, with a manual clock and no market: what the scripts that derive files
// from the API (client-types.ts, openapi-examples.ts) build the app on, so their output is the same on every run.
import { buildApp } from '../src/api/app.js';
import { DEFAULT_START_MS, Sandbox } from '../src/api/sandbox/sandbox.js';
import { DEFAULT_SEED_FILE, loadSeedFile, type SandboxSeed } from '../src/api/sandbox/seed-file.js';
import { GlobexCalendar } from '../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../src/market/holiday-file.js';

/** Runs `use` on the app of a fresh bundled sandbox (the seed changed by `seed`), then closes both. */
export async function withBundledApp<T>(
  use: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>,
  seed: (bundled: SandboxSeed) => SandboxSeed = (bundled) => bundled,
): Promise<T> {
  const sandbox = await Sandbox.start({
    seed: seed(loadSeedFile(DEFAULT_SEED_FILE)),
    startMs: DEFAULT_START_MS,
    calendar: new GlobexCalendar(loadHolidayFile()),
    market: [],
    clockMode: 'manual',
  });
  const app = await buildApp({ sandbox });
  try {
    await app.ready();
    return await use(app);
  } finally {
    await app.close();
    await sandbox.close();
  }
}
