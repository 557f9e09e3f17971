// `npm run openapi:examples`: rewrites src/api/openapi/session-examples.json, the OpenAPI document's examples, from a
// real sandbox session (scripts/openapi/example-session.ts). `-- --check` only reports whether the committed file
// differs (exit 1). The client's types carry the examples too: run `npm run client:types` after it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/market/holiday-file.js';
import { sessionExamplesSource } from './openapi/session-examples-source.js';

const file = join(packageRoot(), 'src', 'api', 'openapi', 'session-examples.json');
const source = await sessionExamplesSource();
const current = readFileSync(file, { encoding: 'utf8', flag: 'a+' });
if (process.argv.includes('--check')) {
  if (current !== source) process.stderr.write('openapi:examples: src/api/openapi/session-examples.json differs\n');
  process.exitCode = current === source ? 0 : 1;
} else {
  if (current !== source) writeFileSync(file, source);
  process.stdout.write(
    `openapi:examples: src/api/openapi/session-examples.json ${current === source ? 'is up to date' : 'rewritten'}\n`,
  );
}
