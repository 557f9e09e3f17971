// `npm run client:types`: rewrites src/client/api-types.ts from the routes' OpenAPI document. `-- --check` only
// reports whether the committed file differs (exit 1).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/market/holiday-file.js';
import { apiTypesSource } from './client/api-types-source.js';

const file = join(packageRoot(), 'src', 'client', 'api-types.ts');
const source = await apiTypesSource();
const current = readFileSync(file, { encoding: 'utf8', flag: 'a+' });
if (process.argv.includes('--check')) {
  if (current !== source) process.stderr.write('client:types: src/client/api-types.ts differs from the routes\n');
  process.exitCode = current === source ? 0 : 1;
} else {
  if (current !== source) writeFileSync(file, source);
  process.stdout.write(`client:types: src/client/api-types.ts ${current === source ? 'is up to date' : 'rewritten'}\n`);
}
