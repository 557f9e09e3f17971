// Seeded multi-instrument test data (docs/backtesting.md#several-instruments-and-contract-rolls): one ticks CSV per
// contract (ESH4.csv, ESM4.csv, NQH4.csv, NQM4.csv by default), a print every `stepSeconds` of every equity-index
// session from `from` to `to`, each contract's price a seeded random walk of whole ticks. Small, and the same bytes
// for the same options. `node dist/scripts/multi-instrument-ticks.js OUT_FOLDER [SEED]` writes the default set.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { GlobexCalendar } from '../src/core/calendar/globex-calendar.js';
import { addDays } from '../src/core/calendar/dates.js';
import { parseSymbol } from '../src/core/instruments.js';
import { Dec, ticksToPrice } from '../src/core/money.js';
import { loadHolidayFile } from '../src/market/holiday-file.js';

export interface TickDataOptions {
  seed: number;
  /** Trade dates, inclusive. */
  from: string;
  to: string;
  /** Contract → its first price, a decimal string on its tick grid. */
  contracts: Record<string, string>;
  stepSeconds: number;
  /** Trade dates of a contract left out, to test what a session without prints does. */
  leaveOut?: { contract: string; tradeDate: string }[];
}

export const ES_NQ_ROLL: TickDataOptions = {
  seed: 7,
  from: '2024-02-26',
  to: '2024-03-15',
  contracts: { ESH4: '5050.00', ESM4: '5100.00', NQH4: '17900.00', NQM4: '18100.00' },
  stepSeconds: 60,
};

/** Writes `<contract>.csv` per contract into `folder`; returns the paths, in the contracts' order. */
export function writeTickData(folder: string, options: TickDataOptions): string[] {
  mkdirSync(folder, { recursive: true });
  const calendar = new GlobexCalendar(loadHolidayFile());
  return Object.entries(options.contracts).map(([contract, firstPrice], c) => {
    const { spec } = parseSymbol(contract);
    const tick = new Dec(spec.tickSize);
    const rng = xoroshiro128plus(options.seed * 1_000_003 + c);
    let ticks = new Dec(firstPrice).dividedBy(tick).toNumber();
    const lines = ['ts,instrument,price,size'];
    for (let date = options.from; date <= options.to; date = addDays(date, 1)) {
      const session = calendar.sessionOf(date, spec.family);
      if (!session) continue;
      if (options.leaveOut?.some((o) => o.contract === contract && o.tradeDate === date)) continue;
      // Contracts print at different seconds, so the merge of their files is in a fixed order.
      for (let t = session.openMs + c * 7_000; t < session.closeMs; t += options.stepSeconds * 1000) {
        ticks += uniformInt(rng, -2, 2);
        lines.push(`${t},${contract},${ticksToPrice(ticks, tick, spec.priceDecimals)},${uniformInt(rng, 1, 20)}`);
      }
    }
    const path = join(folder, `${contract}.csv`);
    writeFileSync(path, lines.join('\n') + '\n');
    return path;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [folder, seed] = process.argv.slice(2);
  if (folder === undefined) {
    process.stderr.write('usage: node dist/scripts/multi-instrument-ticks.js OUT_FOLDER [SEED]\n');
    process.exitCode = 2;
  } else {
    const paths = writeTickData(folder, { ...ES_NQ_ROLL, seed: seed === undefined ? ES_NQ_ROLL.seed : Number(seed) });
    process.stdout.write(`${paths.join('\n')}\n`);
  }
}
