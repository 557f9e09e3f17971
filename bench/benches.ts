// The benchmarks behind `npm run bench`, in the order they run and docs/performance.md lists them.
import type { Bench } from './bench.js';
import { apiBench } from './api.bench.js';
import { backtestBench, backtestEvaluationOnlyBench } from './backtest.bench.js';
import { kernelBench } from './kernel.bench.js';
import { replayBench } from './replay.bench.js';
import { restartBench } from './restart.bench.js';
import { riskBench } from './risk.bench.js';
import { streamsBench } from './streams.bench.js';
import { tickReaderBench } from './tick-reader.bench.js';
import { databentoImportBench } from './databento-import.bench.js';

export const BENCHES: readonly Bench[] = [
  tickReaderBench,
  databentoImportBench,
  kernelBench,
  riskBench,
  backtestBench,
  backtestEvaluationOnlyBench,
  replayBench,
  apiBench,
  restartBench,
  streamsBench,
];
