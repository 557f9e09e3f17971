// `npm run sim`: the whole-system simulation (docs/api.md#the-simulation). Seeded virtual clients drive the real
// app while faults, clock moves, resets, rate-limit bursts, aborted requests and crashes are injected, and every
// step is checked against the invariants; a failure is shrunk to a few steps and written to a file that
// `--replay` runs again.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { wholeNumberFlag } from '../cli/flag-values.js';
import { parseDurationMs } from '../core/time.js';
import { ignoreInvariants, INVARIANTS, type InvariantName } from './sim-failure.js';
import { readPlanFile } from './sim-plan-file.js';
import { runPlan } from './sim-run.js';
import { describeFailure, printSteps, runSeeds } from './sim-seeds.js';

const EXIT_FAILED = 1;
const EXIT_INVALID_INPUT = 2;

const args = await yargs(hideBin(process.argv))
  .scriptName('npm run sim --')
  .usage(
    '$0 [options]\n\nThe whole-system simulation: seeded clients of every kind drive the sandbox API (inject, and\nWebSocket subscribers on a loopback port) while faults, clock moves, resets, rate-limit bursts, aborted\nrequests and crashes are injected; every answer and, every few steps, the whole state are checked. A failure\nis shrunk to a few steps, written to a file and printed. docs/api.md#the-simulation says what is checked.',
  )
  .option('seed', { type: 'string', describe: 'the seed to run', default: '1', coerce: wholeNumberFlag('seed', 0) })
  .option('seeds', { type: 'string', describe: 'a range of seeds, A..B (B may be large with --duration)' })
  .option('steps', { type: 'string', describe: 'steps per seed', default: '300', coerce: wholeNumberFlag('steps', 1) })
  .option('clients', {
    type: 'string',
    describe: 'virtual clients (the first 8 are one of each kind)',
    default: '8',
    coerce: wholeNumberFlag('clients', 1),
  })
  .option('duration', { type: 'string', describe: 'stop starting seeds after this much wall time: 90s, 30m, 8h' })
  .option('replay', { type: 'string', describe: 'run the steps of a failure file again, exactly' })
  .option('out', { type: 'string', describe: 'where failure files go', default: 'reports/sim' })
  .option('db-dir', {
    type: 'string',
    describe: 'where each run keeps its SQLite file (default: /dev/shm when there is one, else the temp folder)',
  })
  .option('check-every', {
    type: 'string',
    describe: 'the state invariants every N steps',
    default: '25',
    coerce: wholeNumberFlag('check-every', 1),
  })
  .option('shrink-runs', {
    type: 'string',
    describe: 'runs spent shrinking a failure (0: do not shrink)',
    default: '300',
    coerce: wholeNumberFlag('shrink-runs', 0),
  })
  .option('ignore', {
    type: 'string',
    describe: `invariants to look past, comma-separated (a known bug): ${INVARIANTS.join(', ')}`,
  })
  .option('timeout', {
    type: 'string',
    describe: 'ms a request may go unanswered before the run fails',
    default: '10000',
    coerce: wholeNumberFlag('timeout', 1),
  })
  .example('$0 --seed 7 --steps 1000', 'one seed, a thousand steps')
  .example('$0 --seeds 1..100000 --duration 8h', 'seeds one after another for eight hours')
  .example('$0 --replay reports/sim/seed-7.json', 'the shrunk steps of a failure, again')
  .strict()
  .help()
  .alias('h', 'help')
  .wrap(Math.min(110, process.stdout.columns ?? 110))
  // Invalid flags are invalid input (exit 2), as on the propsim CLI: a bad value in one line naming the flag.
  .fail((message, error, y) => {
    const text = message ?? error?.message ?? 'invalid arguments';
    if (!/^--[a-z-]+: /.test(text)) y.showHelp();
    process.stderr.write(`npm run sim: ${text}\n`);
    process.exit(EXIT_INVALID_INPUT);
  })
  .parseAsync();

const print = (line: string) => void process.stdout.write(`${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`npm run sim: ${message}\n`);
  process.exit(EXIT_INVALID_INPUT);
};

const ignored = (args.ignore ?? '').split(',').filter((n) => n !== '');
for (const name of ignored) if (!INVARIANTS.includes(name as InvariantName)) fail(`--ignore: no invariant ${name}`);
ignoreInvariants(ignored as InvariantName[]);
const dbDir = args.dbDir ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir());
const run = { dbDir, requestTimeoutMs: args.timeout };

if (args.replay !== undefined) {
  let loaded;
  try {
    loaded = readPlanFile(args.replay);
  } catch (error) {
    fail((error as Error).message);
  }
  const { plan, file } = loaded!;
  print(
    `replaying ${args.replay}: seed ${plan.seed}, ${plan.steps.length} steps${file.failure ? `; it failed with ${describeFailure(file.failure)}` : ''}`,
  );
  printSteps(plan, print);
  const result = await runPlan(plan, run);
  if (result.failure) {
    print(`FAIL  ${describeFailure(result.failure)} (db ${result.dbFile})`);
    process.exitCode = EXIT_FAILED;
  } else print(`PASS  ${result.steps} steps, ${result.requests} requests, ${result.crashes} crashes`);
} else {
  const range: [number, number] = args.seeds === undefined ? [args.seed, args.seed] : seedRange(args.seeds);
  const durationMs = args.duration === undefined ? undefined : durationOf(args.duration);
  const summary = await runSeeds({
    from: range[0],
    to: range[1],
    steps: args.steps,
    clients: args.clients,
    checkEvery: args.checkEvery,
    durationMs,
    outDir: args.out,
    shrinkRuns: args.shrinkRuns,
    run,
    print,
  });
  const seconds = summary.wallMs / 1000;
  const perSecond = summary.steps / (summary.runMs / 1000);
  print(
    `${summary.seeds} seeds (${range[0]}..${range[0] + summary.seeds - 1}), ${summary.steps} steps, ${summary.requests} requests, ` +
      `${summary.crashes} crashes in ${seconds.toFixed(1)} s (${perSecond.toFixed(0)} steps/s, shrinking left out): ` +
      (summary.failures.length === 0 ? 'every invariant held' : `${summary.failures.length} failed`),
  );
  for (const f of summary.failures) print(`  seed ${f.seed}: ${f.failure.invariant} in ${f.steps} steps, ${f.file}`);
  if (summary.failures.length > 0) process.exitCode = EXIT_FAILED;
}

function seedRange(text: string): [number, number] {
  const match = /^(\d+)\.\.(\d+)$/.exec(text);
  if (!match || Number(match[1]) > Number(match[2]))
    return fail(`--seeds: expected A..B with A <= B, got ${JSON.stringify(text)}`);
  return [Number(match[1]), Number(match[2])];
}

function durationOf(text: string): number {
  try {
    return parseDurationMs(text, '--duration');
  } catch (error) {
    return fail((error as Error).message);
  }
}
