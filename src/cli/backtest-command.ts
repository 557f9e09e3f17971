// `propsim backtest --config FILE [--out DIR] [--workers N | --queue URL] [--traders N] [--seed N] [--cells 0,5]
// [--json] [--strict]` (docs/backtesting.md, docs/scaling.md): a plan-parameter grid over market data and trader activity. Exit 0, or 2 for invalid input; Ctrl-C or SIGTERM stops
// cleanly (130) and writes nothing.
import { queueOption, workerWaitOption } from './queue-option.js';
import { setMaxListeners } from 'node:events';
import { basename, extname, join } from 'node:path';
import type { Argv } from 'yargs';
import { SingleBar } from 'cli-progress';
import { loadBacktestConfig, type BacktestConfig } from '../backtest/config/backtest-config.js';
import type { FillsFileSpec } from '../backtest/fills/trader-fills.js';
import type { ImportedFills } from '../import/import-fills.js';
import { fillsImportCounts, importWarnings } from '../reports/fills-import-table.js';
import { backtestOutputFiles, summaryDocument, writeBacktestOutputs } from '../reports/backtest-outputs.js';
import { cellsToRun, withCellSubset } from '../backtest/config/cell-subset.js';
import { checkPeriodCoverage } from '../backtest/config/period-coverage.js';
import { fillsAgainstMarket } from '../backtest/fills/off-market-fills.js';
import { offMarketRefusal, offMarketWarning } from '../reports/off-market-fills.js';
import { withSyntheticTraders } from '../backtest/config/trader-count.js';
import { defaultWorkers, runBacktest, type BacktestProgress, type BacktestRun } from '../backtest/run-backtest.js';
import { backtestSummaryLines } from '../reports/backtest-summary.js';
import { wholeNumberFlag } from './flag-values.js';
import { CliInputError, reportFailure } from './input-error.js';
import { checkOutFolder } from './out-folder.js';
import { afterPendingSignals } from './pending-signals.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { helpExamples } from './help-examples.js';
import { missingPrintsOf, missingPrintsSentence } from '../reports/missing-prints.js';

interface BacktestArgs {
  config: string;
  out: string | undefined;
  workers: number | undefined;
  queue: string | undefined;
  workerWait: number | undefined;
  traders: number | undefined;
  seed: number | undefined;
  cells: string | undefined;
  json: boolean;
  strict: boolean;
}

export const backtestCommand = {
  ...COMMAND_SUMMARIES.backtest,
  builder: (y: Argv) =>
    y
      .option('config', {
        describe: 'back-test config (YAML): market, period, traders, base plan, grid, economics',
        type: 'string',
        demandOption: true,
        requiresArg: true,
      })
      .option('out', {
        describe:
          'folder for cells.csv, traders.csv, summary.json and report.html (default reports/backtest/<config name>)',
        type: 'string',
        requiresArg: true,
      })
      .option('workers', {
        describe:
          'worker threads running cells in parallel, a whole number ≥ 1 (default: the cores); results are identical for any N',
        type: 'string',
        requiresArg: true,
        coerce: wholeNumberFlag('workers', 1),
      })
      .option('queue', queueOption('the cells'))
      .option('worker-wait', workerWaitOption())
      .option('traders', {
        describe:
          "synthetic traders in each cell, a whole number (default: the config's counts); the config's traders.synthetic blocks keep their shares. The report says how many a question needs",
        type: 'string',
        requiresArg: true,
        coerce: wholeNumberFlag('traders', 1),
      })
      .option('seed', {
        describe:
          "the seed, a whole number ≥ 0, in place of the config's: traders' draws and the statistics' resamples; rerun with another to see which verdicts hold",
        type: 'string',
        requiresArg: true,
        coerce: wholeNumberFlag('seed', 0),
      })
      .option('cells', {
        describe:
          'run only these grid cells, by index, comma-separated (e.g. 0,5); they keep their indices, and the reference cell (compare_to, default 0) must be among them',
        type: 'string',
        requiresArg: true,
      })
      .option('json', { describe: 'print summary.json on stdout', type: 'boolean', default: false })
      .option('strict', {
        describe:
          'historical fills more than 2 ticks outside what their instrument traded in their minute are invalid input (exit 2, before any cell runs), not a warning and a count (fills_off_market)',
        type: 'boolean',
        default: false,
      })
      .epilog(
        helpExamples([
          [
            'the bundled 6E sweep over one real month: 12 cells × 240 traders (the funded stage has no time to pay out)',
            '$0 backtest --config fixtures/backtest/6e-january-2024.yaml',
          ],
          [
            'the same plans over six months resampled from that month (market.resample), with payouts: the demo',
            '$0 backtest --config fixtures/backtest/6e-six-months-resampled.yaml',
          ],
          [
            'the same sweep with 1,500 traders a cell, to resolve differences of about 1 point in pass rate',
            '$0 backtest --config fixtures/backtest/6e-january-2024.yaml --traders 1500',
          ],
          [
            'cells #0 and #5 only, with another seed, to check that their verdict holds',
            '$0 backtest --config fixtures/backtest/6e-january-2024.yaml --cells 0,5 --seed 13',
          ],
          [
            'the sweep on the `propsim worker` processes of a Redis queue (docs/scaling.md)',
            '$0 backtest --config fixtures/backtest/6e-january-2024.yaml --queue redis://:secret@10.0.0.5:6379',
          ],
        ]),
      )
      .epilog(
        'Progress goes to stderr. Exit codes: 0 done, 1 a shard failed on every attempt, or no worker or no Redis for --worker-wait (--queue), 2 invalid input or an unreachable Redis (nothing is run or written), 130 interrupted (nothing is written).',
      ),
  handler: async (args: BacktestArgs) => {
    try {
      process.exitCode = await backtest(args);
    } catch (error) {
      reportFailure('backtest', error);
    }
  },
};

async function backtest(args: BacktestArgs): Promise<number> {
  const workers = args.workers ?? defaultWorkers();
  const out = args.out ?? join('reports', 'backtest', basename(args.config, extname(args.config)));
  checkOutFolder(out);
  const config = loadBacktestConfig(
    args.config,
    (warning) => process.stderr.write(`propsim backtest: warning: ${warning}\n`),
    (imported, spec) => process.stderr.write(fillsImportText(imported, spec)),
    (loaded) => withFlags(loaded, args),
  );
  // Before any worker starts: a period beyond the market data, or a resample of too few sessions, is invalid input.
  await checkPeriodCoverage(config);
  const againstMarket = await fillsAgainstMarket(config);
  // Fills off the market: under --strict invalid input, found before any cell runs; else a warning and a count.
  const refusal = offMarketRefusal(againstMarket);
  if (refusal !== undefined && args.strict) throw new CliInputError(`--strict: ${refusal}`);
  const warning = offMarketWarning(againstMarket);
  if (warning !== undefined) process.stderr.write(`propsim backtest: warning: ${warning}\n`);
  const cells = cellsToRun(config).length;
  const abort = new AbortController();
  setMaxListeners(cells + 1, abort.signal); // one listener per queued cell on the pool
  const onInterrupt = () => abort.abort();
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  const bar = process.stderr.isTTY
    ? new SingleBar({
        format: 'cells {value}/{total} |{bar}| {accounts} accounts | {rate} prints/s{workers} | ETA {eta_formatted}',
        hideCursor: true,
      })
    : undefined;
  const startMs = performance.now();
  bar?.start(cells, 0, { accounts: 0, rate: 0, workers: '' });
  let workersSeen = workers;
  let run: BacktestRun;
  let folder: string;
  let seconds: number;
  try {
    run = await runBacktest(config, {
      workers,
      fillsAgainstMarket: againstMarket,
      ...(args.queue === undefined ? {} : { queue: args.queue }),
      ...(args.workerWait === undefined ? {} : { workerWaitMs: args.workerWait * 1000 }),
      warn: (message) => process.stderr.write(`${bar ? '\n' : ''}propsim backtest: ${message}\n`),
      signal: abort.signal,
      onProgress: (p) => {
        const seconds = (performance.now() - startMs) / 1000;
        if (p.workersSeen !== undefined) workersSeen = p.workersSeen;
        bar?.update(p.cellsDone, {
          accounts: p.accounts.toLocaleString('en-US'),
          rate: Math.round(p.prints / seconds).toLocaleString('en-US'),
          workers: p.workersSeen === undefined ? '' : ` | ${p.workersSeen} queue workers seen`,
        });
        if (!bar) process.stderr.write(`backtest: ${progressLine(p, seconds)}\n`);
      },
    });
    bar?.stop();
    const missing = missingPrintsSentence(missingPrintsOf(run));
    if (missing) process.stderr.write(`propsim backtest: warning: ${missing}\n`);
    seconds = (performance.now() - startMs) / 1000;
    const files = backtestOutputFiles(run);
    await afterPendingSignals(); // a Ctrl-C while the report was drawn writes nothing
    if (abort.signal.aborted) throw abort.signal.reason;
    // In one turn with the handlers on: a signal from now on is handled once every file is in place.
    folder = writeBacktestOutputs(files, out);
  } catch (error) {
    bar?.stop();
    if (abort.signal.aborted) {
      process.stderr.write('backtest: interrupted; nothing was written\n');
      return 130;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    process.removeListener('SIGTERM', onInterrupt);
  }
  if (args.json) process.stdout.write(JSON.stringify(summaryDocument(run), null, 2) + '\n');
  else
    process.stdout.write(
      backtestSummaryLines(run, folder, seconds, workersSeen)
        .map((line) => line + '\n')
        .join(''),
    );
  return 0;
}

/** --seed, --traders and --cells set on the config; a refusal comes before its fills file is read or told of. */
function withFlags(loaded: BacktestConfig, args: BacktestArgs): BacktestConfig {
  const seeded = args.seed === undefined ? loaded : { ...loaded, seed: args.seed };
  const counted = args.traders === undefined ? seeded : withSyntheticTraders(seeded, args.traders);
  return args.cells === undefined ? counted : withCellSubset(counted, args.cells);
}

/** What `propsim import fills` would tell of the export the config reads (docs/backtesting.md#importing-broker-exports). */
function fillsImportText(imported: ImportedFills, spec: FillsFileSpec): string {
  // A config has no --map: the way to name the id column is an import first.
  const turnOn =
    'a config cannot map columns: import the export with propsim import fills --map id=COLUMN and name its output in traders.fills.path';
  const warnings = importWarnings(imported, turnOn)
    .map((w) => `propsim backtest: warning: ${w}\n`)
    .join('');
  const { headline, table } = fillsImportCounts(imported);
  return `${warnings}propsim backtest: read ${headline} from ${spec.path} (a ${spec.format} export)\n${table}`;
}

/** `cell 3/12 done (4.2 s)`, and on a queue the shards' rate and the workers seen. */
function progressLine(p: BacktestProgress, seconds: number): string {
  const line = `cell ${p.cellsDone}/${p.cells} done (${seconds.toFixed(1)} s)`;
  if (p.workersSeen === undefined) return line;
  const rate = Math.round(p.accountSessionDays / seconds).toLocaleString('en-US');
  return `${line}: ${rate} account-session-days/s, ${p.workersSeen} worker${p.workersSeen === 1 ? '' : 's'} seen`;
}
