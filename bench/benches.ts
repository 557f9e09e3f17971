// The benchmarks behind `npm run bench`, in the order they run and docs/performance.md lists them.
import type { Bench } from './bench.js';
import { apiBench } from './api.bench.js';
import { backtestBench, backtestEvaluationOnlyBench } from './backtest.bench.js';
import { kernelBench } from './kernel.bench.js';
import { optimizeBench } from './optimize.bench.js';
import { replayBench } from './replay.bench.js';
import { replayFixedBench } from './replay-fixed.bench.js';
import { restartBench } from './restart.bench.js';
import { riskBench } from './risk.bench.js';
import { streamsBench } from './streams.bench.js';
import { tickReaderBench } from './tick-reader.bench.js';
import { databentoImportBench } from './databento-import.bench.js';
import { multiInstrumentBench } from './multi-instrument.bench.js';
import { queueBench } from './queue.bench.js';
import { resampledBench, sixMonthsBench } from './resample.bench.js';

export const BENCHES: readonly Bench[] = [
  tickReaderBench,
  databentoImportBench,
  kernelBench,
  riskBench,
  backtestBench,
  backtestEvaluationOnlyBench,
  resampledBench,
  sixMonthsBench,
  multiInstrumentBench,
  queueBench,
  optimizeBench,
  replayBench,
  replayFixedBench,
  apiBench,
  restartBench,
  streamsBench,
];
