// YAML or JSON text (JSON is YAML 1.2) decoded for validation; where each value was written is found when an error
// needs it, so that it can name its line. A JSON object or array is read by JSON.parse
// (docs/scenarios.md#large-scenarios-as-json). The YAML 1.2 core schema is forced and YAML 1.1 tags (!!timestamp …)
// are not resolved, so an unquoted 2026-03-02T08:00:00-06:00 stays the string as written — never a Date in another
// zone (docs/scenarios.md, "Top-level keys").
import { LineCounter, parseDocument, type Document, type YAMLError } from 'yaml';
import { plainYamlValue } from './fast-yaml.js';
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
  // The YAML document (with where each value was written) of a large scenario costs far more than its value.
  let parsed: ParsedYaml | undefined;
  const yaml = () => (parsed ??= parseYaml(text, file));
  const value = plainJsonValue(text) ?? plainYamlValue(text) ?? yaml().value;
  const positionOf = (path: string) => {
    if (path === '') return undefined;
    const { doc, lineCounter } = yaml();
    return positionOfPath(doc, lineCounter, path);
  };
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

interface ParsedYaml {
  doc: Document;
  lineCounter: LineCounter;
  value: unknown;
}

function parseYaml(text: string, file: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) throw syntaxError(file, problem);
  try {
    return { doc, lineCounter, value: doc.toJS({ maxAliasCount: 100 }) };
  } catch (error) {
    throw new ScenarioError(file, '', '', `invalid YAML: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The value of a text that is a JSON object or array, by JSON.parse: JSON is YAML 1.2, and this is the value the
 * YAML path gives it, tens of times sooner. Undefined for anything else, and for JSON the YAML path must judge: a
 * key written twice (JSON.parse keeps the last, YAML refuses the file) or a `__proto__` key.
 */
export function plainJsonValue(text: string): object | undefined {
  const first = /\S/.exec(text)?.[0];
  if ((first !== '{' && first !== '[') || text.includes('"__proto__"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return keysWritten(text) === keysKept(value) ? (value as object) : undefined;
}

/**
 * The keys a JSON text writes: every string followed by a colon (outside strings, JSON has no quote). A scan of char
 * codes rather than a regex match per string, because a large scenario has a great many strings.
 */
function keysWritten(json: string): number {
  let keys = 0;
  let at = json.indexOf('"');
  while (at >= 0) {
    // The string's end: the next quote not escaped.
    let end = at + 1;
    for (;;) {
      const code = json.charCodeAt(end);
      if (code === QUOTE || Number.isNaN(code)) break;
      end += code === BACKSLASH ? 2 : 1;
    }
    let next = end + 1;
    while (isJsonSpace(json.charCodeAt(next))) next++;
    if (json.charCodeAt(next) === COLON) keys++;
    at = json.indexOf('"', next);
  }
  return keys;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The keys of every object in a parsed JSON value. */
function keysKept(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + keysKept(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  const values = Object.values(value);
  return values.length + values.reduce((n: number, item) => n + keysKept(item), 0);
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
