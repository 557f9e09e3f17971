// Reads a scenario file (YAML or JSON, told apart by content: JSON is YAML 1.2) and validates it.
// The YAML 1.2 core schema is forced and YAML 1.1 tags (!!timestamp …) are not resolved, so an unquoted
// 2026-03-02T08:00:00-06:00 stays the string as written — never a Date in another zone
// (docs/scenarios.md#top-level-keys).
import { readFileSync } from 'node:fs';
import { parseDocument, type YAMLError } from 'yaml';
import { parseScenario } from './parse-scenario.js';
import { ScenarioError } from './scenario-error.js';
import type { Scenario } from './scenario-types.js';

const YAML_OPTIONS = { version: '1.2', schema: 'core', resolveKnownTags: false, uniqueKeys: true, prettyErrors: true } as const;

export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ScenarioError(path, '', '', `cannot read the scenario file (${code})`, { cause: error });
  }
  return parseScenario(decodeScenarioText(text, path), path);
}

/** Decodes YAML or JSON text; a syntax error becomes a ScenarioError with its line and column. */
export function decodeScenarioText(text: string, file: string): unknown {
  const doc = parseDocument(text, YAML_OPTIONS);
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) throw syntaxError(file, problem);
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ScenarioError(file, '', '', `invalid YAML: ${(error as Error).message}`, { cause: error });
  }
}

function syntaxError(file: string, problem: YAMLError): ScenarioError {
  const position = problem.linePos?.[0];
  // The pretty message is "<what> at line L, column C:\n\n<source excerpt>"; keep what and the excerpt.
  const [first = '', ...excerpt] = problem.message.split('\n');
  const what = first.replace(/ at line \d+, column \d+:?$/, '');
  const detail = `invalid YAML (${problem.code}): ${what}${excerpt.length > 0 ? `\n${excerpt.join('\n').replace(/\n+$/, '')}` : ''}`;
  return new ScenarioError(file, '', '', detail, {
    cause: problem,
    ...(position === undefined ? {} : { line: position.line, column: position.col }),
  });
}
