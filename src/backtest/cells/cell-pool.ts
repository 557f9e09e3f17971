// The piscina pool of worker threads that run cells (cell-worker.ts): used by a local run and by `propsim worker`,
// whose main thread must stay free to keep its queue locks alive while cells run.
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { packageRoot } from '../../market/holiday-file.js';

export function cellPool(threads: number): Piscina {
  // The compiled worker: tests and the CLI both run after `npm run build`.
  return new Piscina({
    filename: join(packageRoot(), 'dist', 'src', 'backtest', 'cells', 'cell-worker.js'),
    maxThreads: threads,
    minThreads: 1,
    // Node 20's require() of an ES module, which piscina tries first, now and then aborts the process in a worker
    // (an assertion in CreateRequiredModuleFacade); without it piscina loads the module with import().
    execArgv: ['--no-experimental-require-module'],
  });
}
