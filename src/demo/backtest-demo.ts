// The back-test part of the demo: the bundled plan sweep over the firm's whole funnel for six months, resampled from
// the real 6E January (12 cells × 180 traders), on every core, written to reports/demo/backtest; prints the summary
// the CLI prints. The one-month sweep beside it (6e-january-2024.yaml) shows what a month leaves out.
import { join } from 'node:path';
import { loadBacktestConfig } from '../backtest/config/backtest-config.js';
import { backtestOutputFiles, writeBacktestOutputs } from '../reports/backtest-outputs.js';
import { defaultWorkers, runBacktest } from '../backtest/run-backtest.js';
import { backtestSummaryLines } from '../reports/backtest-summary.js';
import { packageRoot } from '../market/holiday-file.js';

export async function backtestDemo(outDir: string): Promise<void> {
  const config = loadBacktestConfig(join(packageRoot(), 'fixtures', 'backtest', '6e-six-months-resampled.yaml'));
  const workers = defaultWorkers();
  const out = process.stdout;
  // Progress is one line that counts up in a terminal; a log (CI, a pipe) gets none, where a carriage return would
  // leave every count on one line before the summary.
  const terminal = process.stderr.isTTY;
  out.write(
    `propsim demo: back-testing ${config.name} on ${workers} worker threads${terminal ? ' (progress on stderr)' : ''}\n`,
  );
  const startMs = performance.now();
  const run = await runBacktest(config, {
    workers,
    onProgress: (p) => {
      if (terminal)
        process.stderr.write(`\r  cell ${p.cellsDone}/${p.cells}${p.cellsDone === p.cells ? '\r\x1b[2K' : ''}`);
    },
  });
  const seconds = (performance.now() - startMs) / 1000;
  const folder = writeBacktestOutputs(backtestOutputFiles(run), outDir);
  for (const line of backtestSummaryLines(run, folder, seconds, workers)) out.write(`  ${line}\n`);
  out.write('\n');
}
