// `serve --market FILE...` (docs/api.md#start-up): a CSV of ticks (ts,instrument,price[,size], optionally gzipped)
// as it is, or a YAML/JSON file holding `files:` exactly as a scenario's `market:` (for bars, an instrument, or
// sorting), whose paths are relative to it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MarketFileSpec } from '../../market/market-file-spec.js';
import { ScenarioError } from '../../scenario/scenario-error.js';
import { parseMarket } from '../../scenario/scenario-market.js';
import { decodeScenarioSource } from '../../scenario/yaml-source.js';

const SPEC_FILE = /\.(ya?ml|json)$/i;

export function marketSpecsOf(paths: readonly string[]): MarketFileSpec[] {
  return paths.flatMap((path) =>
    SPEC_FILE.test(path) ? specFile(path) : [{ path: resolve(path), format: 'ticks' as const }],
  );
}

function specFile(file: string): MarketFileSpec[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScenarioError(
      file,
      '',
      '',
      `cannot read the market file list (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  const source = decodeScenarioSource(text, file);
  return source.withPositions(() => parseMarket(source.value, file));
}
