// The JSON Schema files of propsim's file formats (docs/scenarios.md#editor-support), made from their TypeBox
// schemas: schemas/scenario.json, schemas/sandbox-seed.json, schemas/backtest-config.json, schemas/optimize-config.json. `npm run schemas` writes
// them; test/schemas/file-schemas.test.ts checks that the committed files are these.
import type { TSchema } from 'typebox';
import { SandboxSeedFile } from '../../src/api/sandbox/seed-schema.js';
import { BacktestConfigFileForEditors } from '../../src/backtest/config/backtest-config-schema.js';
import { ScenarioFile } from '../../src/scenario/scenario-schema.js';
import { OptimizeConfigFile } from '../../src/backtest/optimize/optimize-config-schema.js';

export interface SchemaFile {
  /** Relative to the package root. */
  path: string;
  text: string;
}

const FORMATS: readonly { path: string; schema: TSchema }[] = [
  { path: 'schemas/scenario.json', schema: ScenarioFile },
  { path: 'schemas/sandbox-seed.json', schema: SandboxSeedFile },
  { path: 'schemas/backtest-config.json', schema: BacktestConfigFileForEditors },
  { path: 'schemas/optimize-config.json', schema: OptimizeConfigFile },
];

export function fileSchemaTexts(): SchemaFile[] {
  return FORMATS.map(({ path, schema }) => ({
    path,
    text: `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...(forEditors(schema) as object) }, null, 2)}\n`,
  }));
}

/**
 * The schema as editors read it: `expected` (the words of propsim's own errors) becomes the message an editor shows
 * for a pattern that fails (`patternErrorMessage`, read by VS Code and yaml-language-server) and is dropped
 * elsewhere; the rest is standard JSON Schema.
 */
function forEditors(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forEditors);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'expected' || key === 'uniqueExpected') continue;
    out[key] = forEditors(value);
  }
  const expected = (node as Record<string, unknown>).expected;
  if (typeof out.pattern === 'string' && typeof expected === 'string') out.patternErrorMessage = `expected ${expected}`;
  return out;
}
