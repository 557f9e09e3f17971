// YAML or JSON text (JSON is YAML 1.2) decoded for validation, keeping where each value was written so an
// error can name its line. The YAML 1.2 core schema is forced and YAML 1.1 tags (!!timestamp …) are not
// resolved, so an unquoted 2026-03-02T08:00:00-06:00 stays the string as written — never a Date in another
// zone (docs/scenarios.md, "Top-level keys").
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { ScenarioError, withSourcePosition } from './scenario-error.js';
import { positionOfPath, type SourcePosition } from './source-positions.js';

const YAML_OPTIONS = {
  version: '1.2',
  schema: 'core',
  resolveKnownTags: false,
  uniqueKeys: true,
  prettyErrors: true,
} as const;

/** Decoded text, and where each field path of it was written. */
export interface DecodedSource {
  value: unknown;
  positionOf(path: string): SourcePosition | undefined;
  /** Runs a validation of `value`; a ScenarioError it throws gains the line and column of its field. */
  withPositions<T>(validate: () => T): T;
}

/** Decodes YAML or JSON text; a syntax error becomes a ScenarioError with its line and column. */
export function decodeScenarioText(text: string, file: string): unknown {
  return decodeScenarioSource(text, file).value;
}

export function decodeScenarioSource(text: string, file: string): DecodedSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) throw syntaxError(file, problem);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ScenarioError(file, '', '', `invalid YAML: ${(error as Error).message}`, { cause: error });
  }
  const positionOf = (path: string) => (path === '' ? undefined : positionOfPath(doc, lineCounter, path));
  return {
    value,
    positionOf,
    withPositions(validate) {
      try {
        return validate();
      } catch (error) {
        if (error instanceof ScenarioError && error.file === file && error.line === undefined)
          throw withSourcePosition(error, positionOf(error.path));
        throw error;
      }
    },
  };
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
