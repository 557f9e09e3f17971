// propsim's version, from its package.json: --version, and what a shard carries so workers match their coordinator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../market/holiday-file.js';

export function propsimVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
