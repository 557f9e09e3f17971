// `market:` of a scenario: `{ files: [ { path, format, instrument?, bar_ms?, sort? } ] }`. Paths are resolved
// against the scenario file's folder and must name an existing file when the scenario is loaded.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  at,
  checkKeys,
  fail,
  readBoolean,
  readEnum,
  readFields,
  readInteger,
  readList,
  required,
} from '../core/accounts/input-fields.js';
import type { MarketFileSpec } from '../market/market-file-spec.js';
import { readSymbol } from './scenario-fields.js';

const FILE_KEYS = ['path', 'format', 'instrument', 'bar_ms', 'sort'] as const;
const FORMATS = ['ticks', 'bars', 'databento'] as const;

export function parseMarket(raw: unknown, scenarioFile: string): MarketFileSpec[] {
  if (raw === undefined) return [];
  const doc = readFields(raw, 'market', 'a mapping with files');
  checkKeys(doc, 'market', ['files']);
  const folder = scenarioFolder(scenarioFile);
  return readList(required(doc.files, 'market.files', 'a list of market files'), 'market.files', (item, path) =>
    parseMarketFile(item, path, folder),
  );
}

/** The folder a scenario's relative market paths are resolved against (and its journal's are relative to). */
export function scenarioFolder(scenarioFile: string): string {
  return dirname(resolve(scenarioFile));
}

function parseMarketFile(raw: unknown, path: string, folder: string): MarketFileSpec {
  const doc = readFields(raw, path, 'a mapping with path and format');
  checkKeys(doc, path, FILE_KEYS);
  const given = required(doc.path, at(path, 'path'), 'a file path');
  if (typeof given !== 'string' || given === '') fail(at(path, 'path'), 'a file path', given);
  const resolved = resolve(folder, given);
  if (!isFile(resolved))
    fail(
      at(path, 'path'),
      `an existing file (relative paths are from the scenario's folder; looked for ${resolved})`,
      given,
    );
  const format = readEnum(
    required(doc.format, at(path, 'format'), 'ticks, bars or databento'),
    at(path, 'format'),
    FORMATS,
  );
  if (doc.bar_ms !== undefined && format !== 'bars') fail(at(path, 'bar_ms'), 'no bar_ms on a ticks file', doc.bar_ms);
  return {
    path: resolved,
    format,
    ...(doc.instrument === undefined ? {} : { instrument: readSymbol(doc.instrument, at(path, 'instrument')) }),
    ...(doc.bar_ms === undefined ? {} : { bar_ms: readInteger(doc.bar_ms, at(path, 'bar_ms'), { min: 1 }) }),
    ...(doc.sort === undefined ? {} : { sort: readBoolean(doc.sort, at(path, 'sort')) }),
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
