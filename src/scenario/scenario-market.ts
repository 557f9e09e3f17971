// `market:` of a scenario: `{ files: [ { path, format, instrument?, bar_ms?, sort? } ] }`. Paths are resolved
// against the scenario file's folder and must name an existing file when the scenario is loaded.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Static } from 'typebox';
import { at, fail } from '../core/validation/input-fields.js';
import { checkFileValue } from '../core/validation/file-check.js';
import type { MarketFileSpec } from '../market/market-file-spec.js';
import { readSymbol } from './scenario-fields.js';
import { MarketSection } from './scenario-schema.js';

/** `market:` checked against its schema (scenario-schema.ts), then its files found and its symbols looked up. */
export function parseMarket(raw: unknown, scenarioFile: string): MarketFileSpec[] {
  if (raw === undefined) return [];
  const doc = checkFileValue(MarketSection, raw, 'market');
  const folder = scenarioFolder(scenarioFile);
  return doc.files.map((item, i) => parseMarketFile(item, at('market.files', i), folder));
}

/** The folder a scenario's relative market paths are resolved against (and its journal's are relative to). */
export function scenarioFolder(scenarioFile: string): string {
  return dirname(resolve(scenarioFile));
}

type MarketFileText = Static<typeof MarketSection>['files'][number];

function parseMarketFile(doc: MarketFileText, path: string, folder: string): MarketFileSpec {
  const resolved = resolve(folder, doc.path);
  if (!isFile(resolved))
    fail(
      at(path, 'path'),
      `an existing file (relative paths are from the folder of the file that names it; looked for ${resolved})`,
      doc.path,
    );
  if (doc.bar_ms !== undefined && doc.format !== 'bars')
    fail(at(path, 'bar_ms'), 'no bar_ms on a ticks file', doc.bar_ms);
  return {
    path: resolved,
    format: doc.format,
    ...(doc.instrument === undefined ? {} : { instrument: readSymbol(doc.instrument, at(path, 'instrument')) }),
    ...(doc.bar_ms === undefined ? {} : { bar_ms: doc.bar_ms }),
    ...(doc.sort === undefined ? {} : { sort: doc.sort }),
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
