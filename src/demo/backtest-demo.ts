// The back-test part of the demo: the bundled plan sweep over real 6E data (12 cells × 240 traders), on every
// core, written to reports/demo/backtest; prints the five-line summary the CLI prints.
import { join } from 'node:path';
import { loadBacktestConfig } from '../backtest/backtest-config.js';
import { writeBacktestOutputs } from '../reports/backtest-outputs.js';
import { defaultWorkers, runBacktest } from '../backtest/run-backtest.js';
import { formatCents } from '../core/money.js';
import { packageRoot } from '../market/holiday-file.js';

export async function backtestDemo(outDir: string): Promise<void> {
  const config = loadBacktestConfig(join(packageRoot(), 'fixtures', 'backtest', '6e-january-2024.yaml'));
  const workers = defaultWorkers();
  const out = process.stdout;
  out.write(`propsim demo: back-testing ${config.name} on ${workers} worker threads (progress on stderr)\n`);
  const startMs = performance.now();
  const run = await runBacktest(config, {
    workers,
    onProgress: (p) => process.stderr.write(`  cell ${p.cellsDone}/${p.cells}\r`),
  });
  const seconds = (performance.now() - startMs) / 1000;
  const folder = writeBacktestOutputs(run, outDir);
  const rates = run.cells.map((c) => Number(c.summary.passRate) * 100);
  const best = [...run.cells].sort(
    (a, b) => b.summary.netCents - a.summary.netCents || a.cell.index - b.cell.index,
  )[0]!;
  const accounts = run.cells.reduce((n, c) => n + c.summary.accounts, 0);
  const sessionDays = run.cells.reduce((n, c) => n + c.accountSessionDays, 0);
  out.write(
    `  ${run.cells.length} cells × ${run.cells[0]!.summary.accounts} traders = ${accounts.toLocaleString('en-US')} accounts over ${config.period.from} to ${config.period.to}\n`,
  );
  out.write(
    `  pass rate from ${Math.min(...rates).toFixed(1)}% to ${Math.max(...rates).toFixed(1)}% across the grid\n`,
  );
  out.write(
    `  highest net for the firm: cell #${best.cell.index} (${best.cell.label}): $${formatCents(best.summary.netCents)}\n`,
  );
  out.write(
    `  ${seconds.toFixed(1)} s: ${Math.round(sessionDays / seconds).toLocaleString('en-US')} account-session-days/s\n`,
  );
  out.write(`  report: ${folder}/report.html\n\n`);
}
