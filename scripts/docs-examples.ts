// `npm run docs:examples`: rewrites the generated regions of README.md and docs/ from what the built CLI
// prints now. `-- --check` only reports the docs that differ (exit 1); `-- --slow` also runs the month-long
// back-test behind docs/backtesting.md section 1 (a minute or more).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/market/holiday-file.js';
import { renderDocs } from './docs/render-docs.js';

const check = process.argv.includes('--check');
const slow = process.argv.includes('--slow');
const docs = await renderDocs({ slow });
const stale = docs.filter((d) => d.rendered !== d.current);
for (const doc of stale) {
  if (check) process.stderr.write(`docs:examples: ${doc.file} differs from what the code prints now\n`);
  else writeFileSync(join(packageRoot(), doc.file), doc.rendered);
}
if (!check)
  process.stdout.write(
    stale.length === 0
      ? 'docs:examples: every doc is up to date\n'
      : `docs:examples: rewrote ${stale.map((d) => d.file).join(', ')}\n`,
  );
process.exitCode = check && stale.length > 0 ? 1 : 0;
