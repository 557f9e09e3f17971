// propsim's version, from its package.json: --version, what a shard carries and what a worker announces, so workers
// match their coordinator. PROPSIM_VERSION_OVERRIDE replaces it, for tests only: it lets a test start a worker "of
// another version" from the same build (docs/scaling.md#workers-on-n-machines).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../market/holiday-file.js';

export function propsimVersion(): string {
  const override = process.env['PROPSIM_VERSION_OVERRIDE'];
  if (override) return override;
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
