// `npm run perf:docs -- FIGURES.json...`: merges the figures of `npm run bench -- --json` runs into
// docs/performance.json and writes docs/performance.md from it (scripts/performance/render-performance.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCHES } from '../bench/benches.js';
import { packageRoot } from '../src/market/holiday-file.js';
import { mergeFigures, renderPerformance, type BenchFigures } from './performance/render-performance.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: npm run perf:docs -- FIGURES.json... (from `npm run bench -- NAME --json`)\n');
  process.exit(2);
}
const dataPath = join(packageRoot(), 'docs', 'performance.json');
let figures: BenchFigures = existsSync(dataPath) ? (JSON.parse(readFileSync(dataPath, 'utf8')) as BenchFigures) : {};
for (const file of files) figures = mergeFigures(figures, benchJson(readFileSync(file, 'utf8')));
writeFileSync(dataPath, `${JSON.stringify(figures, null, 2)}\n`);
writeFileSync(join(packageRoot(), 'docs', 'performance.md'), renderPerformance(figures, BENCHES));
process.stderr.write(`wrote docs/performance.md (${Object.keys(figures).join(', ')})\n`);

/** The JSON document of a `npm run bench -- --json` output, after any lines npm printed before it. */
function benchJson(text: string): BenchFigures {
  const start = text.search(/^\{$/m);
  if (start === -1) throw new Error('no JSON document of figures found: was the benchmark run with --json?');
  return JSON.parse(text.slice(start)) as BenchFigures;
}
