// `propsim optimize --config FILE [--out DIR] [--seed N] [--budget ACCOUNT_DAYS] [--workers N | --queue URL] [--json]`
// (docs/optimizing.md): search plan fields for the firm's goal by successive halving, then confirm the finalists on
// traders the search never saw. Exit 0, or 2 for invalid input; Ctrl-C or SIGTERM stops cleanly (130) and writes
// nothing.
import { queueOption } from './queue-option.js';
import { setMaxListeners } from 'node:events';
import { basename, extname, join } from 'node:path';
import type { Argv } from 'yargs';
import { loadOptimizeConfig } from '../backtest/optimize/optimize-config.js';
import { runOptimize, type OptimizeProgress, type OptimizeRun } from '../backtest/optimize/run-optimize.js';
import { checkPeriodCoverage } from '../backtest/period-coverage.js';
import { defaultWorkers } from '../backtest/run-backtest.js';
import { writeBacktestOutputs } from '../reports/backtest-outputs.js';
import { metricText, optimizeOutputFiles, summaryDocument } from '../reports/optimize-outputs.js';
import { COMMAND_SUMMARIES } from './command-list.js';
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
            'check the chosen plan: back-test it as base_plan (plans/chosen-plan.yaml beside a config)',
            'cp /tmp/opt/chosen-plan.yaml plans/ && $0 backtest --config my-check.yaml',
          ],
        ]),
      )
      .epilog(
        'Progress goes to stderr. Exit codes: 0 done, 1 a shard failed on every attempt (--queue), 2 invalid input or an unreachable Redis (nothing is run or written), 130 interrupted (nothing is written).',
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
  if (p.basePlan) return 'confirmation: base plan';
  const where = p.stage === 0 ? 'confirmation' : `stage ${p.stage}/${p.stages}`;
  return `${where}: candidate ${p.cellsDone}/${p.cells}`;
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
  const { confirmation: c, config } = run;
  const chosen = c.evaluations.find((e) => e.candidate === c.chosen)!;
  const metrics = (['pass_rate', 'fail_rate', 'net_per_trader'] as const).map(
    (m) =>
      `${m} ${metricText(m, chosen.metrics[m].value)} (${metricText(m, chosen.metrics[m].low)} to ${metricText(m, chosen.metrics[m].high)})`,
  );
  const checks = c.checks[c.evaluations.indexOf(chosen)]!.map(
    (check) =>
      `  ${check.metric} ${check.bound} ${check.text}: ${check.verdict === 'no_evidence' ? 'no evidence either way' : check.verdict}`,
  );
  return [
    ...(c.feesOnly
      ? [
          'warning (no_payouts): no finalist paid a payout, so their net per trader is fee income only (chosen on it because of --allow-fees-only)',
        ]
      : []),
    `${run.candidates.length} candidates, ${run.stages.length} of ${run.plannedStages} stages, ${c.evaluations.length} finalists confirmed on ${c.traders} unseen traders (seed ${c.seed})`,
    narrowing(run),
    `chosen: #${c.chosen} ${run.candidates[c.chosen]!.label}`,
    `  ${metrics.join('; ')}`,
    config.constraints.length === 0
      ? 'no constraints'
      : c.constraintsMet
        ? `meets every constraint with 95 % confidence (Bonferroni over ${c.comparisons} checks):`
        : `no candidate meets the constraints with 95 % confidence (Bonferroni over ${c.comparisons} checks):`,
    ...checks,
    `${run.accountDays.toLocaleString('en-US')} account-session-days in ${seconds.toFixed(1)} s (${Math.round(run.accountDays / seconds).toLocaleString('en-US')}/s)`,
    `wrote ${folder}/{candidates.csv,front.csv,chosen-plan.yaml,summary.json,report.html}`,
  ];
}
