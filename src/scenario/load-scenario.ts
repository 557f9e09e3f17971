// Reads a scenario file (YAML or JSON, told apart by content: JSON is YAML 1.2) and validates it; a
// validation error names the line and column of its field. Decoding, and why times stay the strings as written,
// is yaml-source.ts (docs/scenarios.md#top-level-keys).
import { readFileSync } from 'node:fs';
import { parseScenario } from './parse-scenario.js';
import { ScenarioError } from './scenario-error.js';
import type { Scenario } from './scenario-types.js';
import { decodeScenarioSource } from './yaml-source.js';

export { decodeScenarioSource, decodeScenarioText, type DecodedSource } from './yaml-source.js';

export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ScenarioError(path, '', '', `cannot read the scenario file (${code})`, { cause: error });
  }
  const source = decodeScenarioSource(text, path);
  return source.withPositions(() => parseScenario(source.value, path));
}
