// A firm's worth of traders to calibrate on, for docs/backtesting.md#how-close-calibration-comes: 200 seeded traders
// of four styles (breakouts, fades, scalpers, swing traders) trade January 2024 6E through the engine, and their fills
// are written as propsim's fills CSV. They are not random_bracket traders, so calibration has to approximate them.
//   node dist/scripts/calibration-population.js /tmp/firm-fills.csv
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticFills } from '../src/calibrate/synthetic-fills.js';
import { plainFillsCsv } from '../src/import/fills-csv.js';
import { FIRM_STYLES } from './calibration-styles.js';

const out = process.argv[2] ?? 'firm-fills.csv';
const bars = fileURLToPath(new URL('../../fixtures/market/6EH4-2024-01.csv.gz', import.meta.url));
const fills = await syntheticFills(FIRM_STYLES, {
  market: [{ path: bars, format: 'bars', instrument: '6EH4' }],
  period: { from: '2024-01-02', to: '2024-01-31' },
  seed: 5,
});
writeFileSync(out, plainFillsCsv(fills));
process.stderr.write(`calibration-population: ${fills.length} fills of 200 traders written to ${out}\n`);
