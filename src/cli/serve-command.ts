// `propsim serve` (docs/api.md#start-up): the sandbox REST API on a simulated clock. Everything is checked before
// the server starts (the seed, the market files, the flags): a problem is one message naming it and exit 2.
// SIGINT or SIGTERM closes the server and exits 0, and so does the end of the npm (npx, npm start) that started it.
import type { Argv } from 'yargs';
import { buildApp } from '../api/app.js';
import { RealtimeClock } from '../api/sandbox/realtime-clock.js';
import { marketSpecsOf } from '../api/sandbox/market-files.js';
import { DEFAULT_START_MS, Sandbox, SNAPSHOT_EVERY_LINES, type ClockMode } from '../api/sandbox/sandbox.js';
import { DEFAULT_SEED_FILE, loadSeedFile } from '../api/sandbox/seed-file.js';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { parseTimeMs } from '../core/time.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { wholeNumberFlag } from './flag-values.js';
import { CliInputError, reportFailure } from './input-error.js';
import { watchNpmParent } from './npm-parent-watch.js';
import { serveBanner } from './serve-banner.js';
import { DEFAULT_DB_FILE, openServeStore, removeDbFile } from './serve-store.js';
import { storeFileError } from '../store/store-file-error.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { helpExamples } from './help-examples.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

interface ServeArgs {
  port: number;
  host: string;
  seed: string | undefined;
  db: string | undefined;
  memory: boolean | undefined;
  snapshotEvery: number;
  clock: ClockMode;
  speed: number | undefined;
  market: string[] | undefined;
  start: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
}

export const serveCommand = {
  ...COMMAND_SUMMARIES.serve,
  builder: (y: Argv) =>
    y
      .option('port', {
        describe: 'port to listen on; 0 picks a free one (printed at start)',
        type: 'string',
        default: '8080',
        requiresArg: true,
        coerce: portFlag,
      })
      .option('host', { describe: 'interface to listen on', type: 'string', default: '127.0.0.1', requiresArg: true })
      .option('seed', {
        describe:
          'seed file: firms, keys, plans, staff, demo accounts (default: the bundled fixtures/sandbox-seed.yaml)',
        type: 'string',
        requiresArg: true,
      })
      .option('db', {
        describe: `SQLite file that keeps the sandbox's state: a restart on it goes on where it stopped (default ${DEFAULT_DB_FILE})`,
        type: 'string',
        requiresArg: true,
      })
      .option('memory', {
        describe: 'keep state in memory only: nothing is written, everything is lost when the server stops',
        type: 'boolean',
      })
      .option('snapshot-every', {
        describe:
          'with a db: a snapshot of the state every N journal lines (less often once the journal is long, see docs/api.md#persistence) and at a clean stop; a restart applies only the lines after the last one',
        type: 'string',
        default: String(SNAPSHOT_EVERY_LINES),
        requiresArg: true,
        coerce: wholeNumberFlag('snapshot-every', 1),
      })
      .option('clock', {
        describe: 'manual: time moves only by POST /v1/sandbox/clock/advance; realtime: it follows the wall clock',
        choices: ['manual', 'realtime'] as const,
        default: 'manual' as const,
      })
      .option('speed', {
        describe: 'realtime only: simulated seconds per wall second (a positive number)',
        type: 'string',
        requiresArg: true,
        coerce: speedFlag,
      })
      .option('market', {
        describe:
          'market files replayed as the clock passes their times: tick CSVs, or a YAML/JSON file with files: as in scenarios',
        type: 'string',
        array: true,
        requiresArg: true,
      })
      .option('start', {
        describe:
          "where the clock starts: ISO 8601 with an offset, or Unix ms (default: the seed's start, else 2026-03-02T08:00:00-06:00)",
        type: 'string',
        requiresArg: true,
      })
      .option('log-level', {
        describe: "Fastify's request log on stderr",
        choices: LOG_LEVELS,
        default: 'warn' as const,
      })
      .conflicts('db', 'memory')
      .epilog(
        helpExamples([
          ['the bundled seed on 127.0.0.1:8080, manual clock; prints the demo keys', '$0 serve'],
          ['your own firms and keys on a free port', '$0 serve --port 0 --seed my-seed.yaml'],
          ['state in ci-sandbox.sqlite: stop and start again where you were', '$0 serve --db ci-sandbox.sqlite'],
          ['a throwaway sandbox that writes nothing', '$0 serve --memory'],
          [
            'a minute of market per second',
            '$0 serve --clock realtime --speed 60 --market ticks.csv.gz\n--start 2026-03-02T08:00:00-06:00',
          ],
        ]),
      )
      .epilog(
        'The API is documented in docs/api.md and, while the server runs, at /docs and /openapi.json. Exit codes: 0 after SIGINT or SIGTERM (or, started by npx or npm start, after npm exits), 2 for an invalid seed, file or flag, or a --db file that is not a sandbox of this seed (nothing is started, the file is left as it is).',
      ),
  handler: async (args: ServeArgs) => {
    try {
      await serve(args);
    } catch (error) {
      reportFailure('serve', error);
    }
  },
};

async function serve(args: ServeArgs): Promise<void> {
  if (args.speed !== undefined && args.clock !== 'realtime')
    throw new CliInputError('--speed: only with --clock realtime');
  const seedFile = args.seed ?? DEFAULT_SEED_FILE;
  const seed = loadSeedFile(seedFile);
  const givenStartMs = args.start !== undefined ? parseTimeMs(args.start, '--start') : undefined;
  const market = marketSpecsOf(args.market ?? []);
  const calendar = new GlobexCalendar(loadHolidayFile());
  const { db, startMs, created } = await openServeStore(
    { db: args.db, memory: args.memory === true, seedFile, startMs: givenStartMs, market },
    seed.startMs ?? DEFAULT_START_MS,
  );
  let sandbox: Sandbox;
  try {
    sandbox = await Sandbox.start(
      {
        seed,
        startMs,
        calendar,
        market,
        clockMode: args.clock,
        snapshotEveryLines: args.snapshotEvery,
        note: (message) => void process.stderr.write(`propsim serve: ${message}\n`),
      },
      db,
    );
  } catch (error) {
    // Nothing of a start that failed is kept; a file made for it goes again.
    await db?.abandon();
    if (db && created) removeDbFile(db.file);
    throw db ? storeFileError(db.file, error) : error;
  }
  const realtime =
    args.clock === 'realtime'
      ? new RealtimeClock(sandbox, args.speed ?? 1, (error) =>
          process.stderr.write(`realtime clock step failed: ${String(error)}\n`),
        )
      : undefined;
  const app = await buildApp({ sandbox, logger: { level: args.logLevel }, ...(realtime ? { realtime } : {}) });
  try {
    await app.listen({ port: args.port, host: args.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new CliInputError(`--port/--host: cannot listen on ${args.host}:${args.port} (${code})`);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : args.port;
  realtime?.start();
  process.stderr.write(serveBanner({ host: args.host, port, seedFile, seed, sandbox, speed: args.speed ?? 1 }));

  await new Promise<void>((resolveStop) => {
    let stopping = false;
    const stop = (reason: string) => {
      if (stopping) return;
      stopping = true;
      // A restart closed before any change has nothing to add to its file.
      const snapshot = sandbox.snapshotsOnClose ? ` (writing a snapshot of the state to ${sandbox.durableFile})` : '';
      process.stderr.write(`propsim serve: ${reason}, closing${snapshot}\n`);
      resolveStop();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    watchNpmParent(() => stop('npm, which started it, has exited'));
  });
  realtime?.stop();
  await app.close();
  await sandbox.close();
}

function portFlag(value: unknown): number {
  const port = wholeNumberFlag('port', 0)(value);
  if (port > 65535)
    throw new CliInputError(`--port: expected a port from 0 to 65535, got ${JSON.stringify(String(value))}`);
  return port;
}

function speedFlag(value: unknown): number {
  const text = Array.isArray(value) ? value[value.length - 1] : value;
  const speed = typeof text === 'string' && /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(speed > 0))
    throw new CliInputError(`--speed: expected a positive number such as 1 or 60, got ${JSON.stringify(text ?? '')}`);
  return speed;
}
