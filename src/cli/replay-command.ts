// `propsim replay <scenario...> [--out DIR] [--seed N] [--json]` (docs/scenarios.md#outputs-of-propsim-replay):
// exit 0 when every expectation held, 1 when one failed, 2 for invalid input. Every file is validated before any
// runs.
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { chicagoIso } from '../core/calendar/dates.js';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { loadScenarioFile } from '../scenario/load-scenario.js';
import { takeChartWorkers, type ChartWorkers } from '../reports/chart-workers.js';
import { ReplayOutputs, replayDocument, slugOf } from '../reports/replay-outputs.js';
import type { ExpectationResult } from '../scenario/expectations.js';
import { wholeNumberFlag } from './flag-values.js';
import { CliInputError, isInputError, reportFailure } from './input-error.js';
import { checkOutFolder, checkRunFolder } from './out-folder.js';
import { afterPendingSignals } from './pending-signals.js';
import { ProgressLine } from './progress-line.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { helpExamples } from './help-examples.js';

interface ReplayArgs {
  scenarios: string[];
  out: string;
  seed: number | undefined;
  json: boolean;
}

export const replayCommand = {
  ...COMMAND_SUMMARIES.replay,
  builder: (y: Argv) =>
    y
      .positional('scenarios', { describe: 'scenario files', type: 'string', array: true, demandOption: true })
      .option('out', {
        describe: 'folder for DIR/<name>/events.jsonl, state.json and report.html',
        type: 'string',
        default: 'reports',
        requiresArg: true,
      })
      .option('seed', {
        describe: "override each scenario's seed (ids, journal): a whole number ≥ 0",
        type: 'string',
        requiresArg: true,
        coerce: wholeNumberFlag('seed', 0),
      })
      .option('json', {
        describe: 'print one JSON document on stdout (an array when several scenarios run)',
        type: 'boolean',
        default: false,
      })
      .epilog(
        helpExamples([
          ['run every example scenario', '$0 replay scenarios/*.yaml'],
          ['a machine-readable result', '$0 replay my.yaml --json | jq .passed'],
        ]),
      )
      .epilog(
        'Exit codes: 0 every expectation held, 1 an expectation failed, 2 invalid input (nothing is run or written), 130 interrupted by Ctrl-C or SIGTERM (nothing is written).',
      ),
  handler: async (args: ReplayArgs) => {
    // Taken first (started as the command loaded: command-list.ts), so that every way out closes it.
    const charts = takeChartWorkers();
    try {
      process.exitCode = await replay(args, charts);
    } catch (error) {
      reportFailure('replay', error);
    } finally {
      await charts.close();
    }
  },
};

async function replay(args: ReplayArgs, charts: ChartWorkers): Promise<number> {
  checkOutFolder(args.out);
  const scenarios = args.scenarios.map((file) => loadScenarioFile(file));
  const slugs = scenarios.map((s) => slugOf(s.name));
  const clash = slugs.find((slug, i) => slugs.indexOf(slug) !== i);
  if (clash) throw new CliInputError(`two scenarios would write to ${args.out}/${clash}: give them different names`);
  for (const slug of slugs) checkRunFolder(join(args.out, slug));
  const calendar = new GlobexCalendar(loadHolidayFile());
  // Run and write everything before moving anything into place: input found bad mid-run (a market file row), or a
  // Ctrl-C before the end, loses nothing. Each run's events.jsonl is written as it goes, into a staging folder that a
  // failure removes.
  const outputs = new ReplayOutputs(args.out);
  // Interrupted mid-run, as failed mid-run: what the runs were writing is removed before the process ends.
  const onInterrupt = () => {
    outputs.abandon();
    process.stderr.write('\npropsim replay: interrupted; nothing was written\n');
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  const runs = [];
  let written: Array<{ folder: string; sha256: string }>;
  try {
    for (const scenario of scenarios) {
      const line = process.stderr.isTTY ? new ProgressLine(process.stderr) : undefined;
      const progress =
        line &&
        ((prints: number, timeMs: number) =>
          line.update(
            () =>
              `${scenario.name}: ${prints.toLocaleString('en-US')} prints replayed, at ${chicagoIso(timeMs).slice(0, 19)} CT`,
          ));
      const options = {
        calendar,
        ...(args.seed === undefined ? {} : { seed: args.seed }),
        ...(progress ? { onProgress: progress } : {}),
      };
      const run = await outputs
        .run(scenario, options)
        .catch((error: unknown) => {
          throw isInputError(error) ? new CliInputError(`${scenario.file}: ${error.message}`) : error;
        })
        .finally(() => line?.end());
      runs.push(run);
    }
    written = await outputs.write(runs, charts);
    // A run without market files (or charts) never waits, and a signal is handled only when the event loop next
    // polls: poll here, with the handlers still on, so that a Ctrl-C sent before the folders move writes nothing.
    await afterPendingSignals();
    outputs.moveIntoPlace();
  } finally {
    // Removed in the same turn as the move: a later signal finds every folder in place.
    process.removeListener('SIGINT', onInterrupt);
    process.removeListener('SIGTERM', onInterrupt);
  }
  const documents: Array<Record<string, unknown>> = [];
  let allPassed = true;
  runs.forEach((run, i) => {
    const { folder, sha256 } = written[i]!;
    documents.push(replayDocument(run, sha256));
    allPassed &&= run.passed;
    if (!args.json) process.stdout.write(summary(run.scenario.name, run.passed, run.expectations, folder));
  });
  if (args.json)
    process.stdout.write(JSON.stringify(documents.length === 1 ? documents[0] : documents, null, 2) + '\n');
  return allPassed ? 0 : 1;
}

function summary(name: string, passed: boolean, expectations: readonly ExpectationResult[], folder: string): string {
  const failed = expectations.filter((e) => !e.passed);
  const head = `${passed ? 'PASS' : 'FAIL'}  ${name}  (${expectations.length - failed.length}/${expectations.length} expectations held) -> ${folder}/report.html\n`;
  const line = (e: ExpectationResult) =>
    `      step ${e.step}: ${e.subject} ${e.field}: expected ${JSON.stringify(e.expected)}, got ${JSON.stringify(e.actual)}${e.detail ? ` (${e.detail})` : ''}\n`;
  return head + failed.map(line).join('');
}
