// `npm run schemas`: rewrites schemas/*.json, the JSON Schemas of the scenario, sandbox seed and back-test config
// files, from their TypeBox schemas (scripts/schemas/file-schema-texts.ts). `-- --check` only reports whether a
// committed file differs (exit 1).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageRoot } from '../src/market/holiday-file.js';
import { fileSchemaTexts } from './schemas/file-schema-texts.js';

const check = process.argv.includes('--check');
let stale = 0;
for (const { path, text } of fileSchemaTexts()) {
  const file = join(packageRoot(), path);
  const current = readFileSync(file, { encoding: 'utf8', flag: 'a+' });
  if (current === text) continue;
  stale++;
  if (check) {
    process.stderr.write(`schemas: ${path} differs from its TypeBox schema\n`);
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    process.stdout.write(`schemas: ${path} rewritten\n`);
  }
}
if (stale === 0) process.stdout.write('schemas: up to date\n');
process.exitCode = check && stale > 0 ? 1 : 0;
