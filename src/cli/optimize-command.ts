// `propsim optimize --config FILE [--out DIR] [--seed N] [--budget ACCOUNT_DAYS] [--workers N | --queue URL] [--json]`
// (docs/optimizing.md): search plan fields for the firm's goal by successive halving, choose on the search's traders,
// then confirm the chosen plan, against the base plan, on traders the search never saw. Exit 0, or 2 for invalid input; Ctrl-C or SIGTERM stops cleanly (130) and writes
// nothing.
import { queueOption, workerWaitOption } from './queue-option.js';
import { setMaxListeners } from 'node:events';
import { basename, extname, join } from 'node:path';
import type { Argv } from 'yargs';
import { loadOptimizeConfig } from '../backtest/optimize/optimize-config.js';
import { runOptimize, type OptimizeProgress, type OptimizeRun } from '../backtest/optimize/run-optimize.js';
import { STABILITY_RESAMPLES } from '../backtest/optimize/choice-stability.js';
import { confirmationSeed } from '../backtest/optimize/search-population.js';
import { checkPeriodCoverage } from '../backtest/config/period-coverage.js';
import { defaultWorkers } from '../backtest/run-backtest.js';
import { writeBacktestOutputs } from '../reports/backtest-outputs.js';
import { optimizeOutputFiles, summaryDocument } from '../reports/optimize-outputs.js';
import { metricText } from '../reports/optimize-words.js';
import {
  constraintsVerdict,
  outsideConstraintsWords,
  stabilityWords,
  versusBaseFigures,
  versusBaseVerdict,
} from '../reports/optimize-words.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { wholeNumberFlag } from './flag-values.js';
import { helpExamples } from './help-examples.js';
import { reportFailure } from './input-error.js';
import { checkOutFolder } from './out-folder.js';
import { afterPendingSignals } from './pending-signals.js';
import { ProgressLine } from './progress-line.js';

interface OptimizeArgs {
  config: string;
  out: string | undefined;
  workers: number | undefined;
  queue: string | undefined;
  workerWait: number | undefined;
  seed: number | undefined;
  budget: number | undefined;
  allowFeesOnly: boolean;
  json: boolean;
}

export const optimizeCommand = {
  ...COMMAND_SUMMARIES.optimize,
  builder: (y: Argv) =>
    y
      .option('config', {
        describe: 'optimize config (YAML): a back-test config with search (plan fields to search) and objective',
        type: 'string',
        demandOption: true,
        requiresArg: true,
      })
      .option('out', {
        describe:
          'folder for candidates.csv, front.csv, chosen-plan.yaml, summary.json and report.html (default reports/optimize/<config name>)',
        type: 'string',
        requiresArg: true,
      })
      .option('seed', {
        describe:
          "the seed, a whole number ≥ 0, in place of the config's: the search's traders; the confirmation draws its own from seed + 1,000,000",
        type: 'string',
        requiresArg: true,
        coerce: wholeNumberFlag('seed', 0),
      })
      .option('budget', {
        describe:
          "the most account-session-days (accounts × trade dates) the run may spend, search and confirmation together; default: the full grid's on the config's traders plus the confirmation",
        type: 'string',
        requiresArg: true,
        coerce: wholeNumberFlag('budget', 1),
      })
      .option('workers', {
        describe: 'worker threads running candidates in parallel, a whole number ≥ 1 (default: the cores)',
        type: 'string',
        requiresArg: true,
        coerce: wholeNumberFlag('workers', 1),
      })
      .option('queue', queueOption("each stage's candidates"))
      .option('worker-wait', workerWaitOption())
      .option('allow-fees-only', {
        describe:
          'maximize net_per_trader even when no candidate paid a payout: without payouts the net is fee income only and rises as more traders fail, so the search is refused (exit 2) unless this is given',
        type: 'boolean',
        default: false,
      })
      .option('json', { describe: 'print summary.json on stdout', type: 'boolean', default: false })
      .epilog(
        helpExamples([
          [
            'the 50K plan that earns the most per trader with a 6–10 % pass rate, over January 2024',
            '$0 optimize --config fixtures/optimize/50k-plan-search.yaml --out /tmp/opt',
          ],
          [
            'the same search within 200,000 account-session-days, the chosen plan as JSON',
            '$0 optimize --config fixtures/optimize/50k-plan-search.yaml --budget 200000 --json | jq .chosen',
          ],
          [
            'is the chosen plan better than the current one, and how stable is the choice?',
            "$0 optimize --config fixtures/optimize/50k-plan-search.yaml --json | jq '.chosen | {versus_base, stability}'",
          ],
          [
            'check the chosen plan: back-test it as base_plan (plans/chosen-plan.yaml beside a config)',
            'cp /tmp/opt/chosen-plan.yaml plans/ && $0 backtest --config my-check.yaml',
          ],
        ]),
      )
      .epilog(
        'Progress goes to stderr. Exit codes: 0 done, 1 a shard failed on every attempt, or no worker or no Redis for --worker-wait (--queue), 2 invalid input or an unreachable Redis (nothing is run or written), 130 interrupted (nothing is written).',
      ),
  handler: async (args: OptimizeArgs) => {
    try {
      process.exitCode = await optimize(args);
    } catch (error) {
      reportFailure('optimize', error);
    }
  },
};

async function optimize(args: OptimizeArgs): Promise<number> {
  const workers = args.workers ?? defaultWorkers();
  const out = args.out ?? join('reports', 'optimize', basename(args.config, extname(args.config)));
  checkOutFolder(out);
  const loaded = loadOptimizeConfig(args.config, (warning) =>
    process.stderr.write(`propsim optimize: warning: ${warning}\n`),
  );
  const config = args.seed === undefined ? loaded : { ...loaded, backtest: { ...loaded.backtest, seed: args.seed } };
  // Before any worker starts: a period beyond the market data, or a resample of too few sessions, is invalid input.
  await checkPeriodCoverage(config.backtest);
  // The confirmation's own period, or its own tape (drawn from its seed), must hold as well.
  if (config.confirmationPeriod || config.backtest.resample) {
    const period = config.confirmationPeriod ?? config.backtest.period;
    const confirmation = { ...config.backtest, seed: confirmationSeed(config.backtest.seed), period };
    await checkPeriodCoverage(confirmation, undefined, config.confirmationPeriod ? 'confirmation.period' : 'period');
  }
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // one listener per queued candidate on the pool
  const onInterrupt = () => abort.abort();
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  const startMs = performance.now();
  const line = process.stderr.isTTY ? new ProgressLine(process.stderr) : undefined;
  let run: OptimizeRun;
  let folder: string;
  try {
    run = await runOptimize(config, {
      workers,
      ...(args.queue === undefined ? {} : { queue: args.queue }),
      ...(args.workerWait === undefined ? {} : { workerWaitMs: args.workerWait * 1000 }),
      warn: (message) => process.stderr.write(`${line ? '\n' : ''}propsim optimize: ${message}\n`),
      signal: abort.signal,
      ...(args.budget === undefined ? {} : { budget: args.budget }),
      allowFeesOnly: args.allowFeesOnly,
      onProgress: (p) => {
        const seconds = (performance.now() - startMs) / 1000;
        if (line) line.update(() => `optimize: ${progressText(p)} · ${seconds.toFixed(0)} s`);
        else process.stderr.write(`optimize: ${progressText(p)} done (${seconds.toFixed(1)} s)\n`);
      },
    });
    line?.end();
    const files = optimizeOutputFiles(run);
    await afterPendingSignals(); // a Ctrl-C while the report was drawn writes nothing
    if (abort.signal.aborted) throw abort.signal.reason;
    folder = writeBacktestOutputs(files, out);
  } catch (error) {
    line?.end();
    if (abort.signal.aborted) {
      process.stderr.write('optimize: interrupted; nothing was written\n');
      return 130;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    process.removeListener('SIGTERM', onInterrupt);
  }
  const seconds = (performance.now() - startMs) / 1000;
  if (args.json) process.stdout.write(JSON.stringify(summaryDocument(run), null, 2) + '\n');
  else process.stdout.write(summaryLines(run, folder, seconds).join('\n') + '\n');
  return 0;
}

function progressText(p: OptimizeProgress): string {
  if (p.stage === 0) return p.basePlan ? 'confirmation: base plan' : 'confirmation: chosen plan';
  return `stage ${p.stage}/${p.stages}: candidate ${p.cellsDone}/${p.cells}`;
}

/** Each stage's candidates, traders and kept (and cut for the budget: docs/optimizing.md#how-the-search-narrows). */
function narrowing(run: OptimizeRun): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const stages = run.stages.map(
    (s) =>
      `${s.evaluations.length} × ${s.traders} traders kept ${s.verdict.kept.length}` +
      (s.verdict.overBudget.length > 0 ? ` (${s.verdict.overBudget.length} more cut for the budget)` : ''),
  );
  const budget = `budget ${n(run.budget)}${run.defaultBudget ? ", the full grid's and the confirmation's" : ''}`;
  return `stages: ${stages.length > 0 ? stages.join('; ') : 'none'} (${budget})`;
}

function summaryLines(run: OptimizeRun, folder: string, seconds: number): string[] {
  const { confirmation: c } = run;
  const metrics = (['pass_rate', 'fail_rate', 'net_per_trader'] as const).map((m) => {
    const e = c.evaluation.metrics[m];
    return `${m} ${metricText(m, e.value)} (${metricText(m, e.low)} to ${metricText(m, e.high)})`;
  });
  const checks = c.checks.map(
    (check) =>
      `  ${check.metric} ${check.bound} ${check.text}: ${check.verdict === 'no_evidence' ? 'no evidence either way' : check.verdict}`,
  );
  const last = run.stages[run.stages.length - 1];
  const outside = outsideConstraintsWords(run);
  const n = (x: number) => x.toLocaleString('en-US');
  return [
    ...(c.feesOnly
      ? [
          'warning (no_payouts): the chosen plan paid no payout, so its net per trader is fee income only (chosen on it because of --allow-fees-only)',
        ]
      : []),
    `${run.candidates.length} candidates, ${run.stages.length} of ${run.plannedStages} stages, chosen on ${last ? `stage ${last.stage}'s ${last.traders} traders` : 'no search (one candidate)'}, confirmed with the base plan on ${c.traders} unseen traders (seed ${c.seed}, ${c.period.from} to ${c.period.to})`,
    narrowing(run),
    `chosen: #${c.chosen} ${run.candidates[c.chosen]!.label}`,
    ...(outside ? [`  ${outside}`] : []),
    `  ${stabilityWords(run, STABILITY_RESAMPLES)}`,
    `  on the confirmation: ${metrics.join('; ')}`,
    `  against the base plan ${run.config.backtest.basePlanName}: ${versusBaseVerdict(run)}: ${c.versusBase.metric} ${versusBaseFigures(c.versusBase)}`,
    `${constraintsVerdict(run)}${checks.length > 0 ? ':' : ''}`,
    ...checks,
    `${n(run.accountDays)} account-session-days in ${seconds.toFixed(1)} s (${n(Math.round(run.accountDays / seconds))}/s)`,
    `wrote ${folder}/{candidates.csv,front.csv,chosen-plan.yaml,summary.json,report.html}`,
  ];
}
