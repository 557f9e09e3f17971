// Entry of `npm run bench`: `node dist/bench/main.js [NAME...] [--json]` runs the named benchmarks (all when
// none is named). Human output goes to stderr; --json also prints one JSON document of the figures on
// stdout, keyed by benchmark name (`npm run perf:docs` turns it into docs/performance.md). To add a benchmark,
// write a Bench and list it in benches.ts.
import { BENCHES } from './benches.js';

async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes('--json');
  const names = argv.filter((arg) => !arg.startsWith('--'));
  const unknown = names.filter((name) => !BENCHES.some((bench) => bench.name === name));
  if (unknown.length > 0 || argv.some((arg) => arg.startsWith('--') && arg !== '--json')) {
    process.stderr.write(`usage: bench [${BENCHES.map((b) => b.name).join('|')}...] [--json]\n`);
    return 2;
  }
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const figures: Record<string, unknown> = {};
  for (const bench of BENCHES.filter((b) => names.length === 0 || names.includes(b.name))) {
    log(`# ${bench.name}: ${bench.description}`);
    figures[bench.name] = await bench.run(log);
  }
  if (json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
