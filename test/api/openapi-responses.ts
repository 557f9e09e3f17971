// Every answer a test receives, checked against the served OpenAPI document (docs/api.md#the-openapi-document): its
// status is one its operation declares, its content type one that status declares, its headers are the declared
// ones (the required ones present, each value valid, none sent that the document does not declare but the
// transport's own), and its body is valid against the schema beside it (Ajv; OpenAPI 3.1 is JSON Schema 2020-12).
// A path the document does not list (an unknown route, /docs, the streams) is held to the error envelope when it
// answers an error, and to nothing else. The inject harness, the listening sandbox and the spawned-server helpers
// all check through here.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/** One answer as a test received it. */
export interface Answer {
  method: string;
  /** The path as requested (a query string is ignored), or the document's path template. */
  path: string;
  status: number;
  headers: Headers | Record<string, string | string[] | number | undefined>;
  body: string;
}

export interface ResponseChecker {
  /** What is wrong with the answer, one line each; empty when the document describes it. */
  problems(answer: Answer): string[];
  /** How many answers were checked. */
  readonly checked: number;
}

/** Headers every answer may carry without a declaration: the transport's. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);
const DOCUMENT = 'openapi.json';

const checkers = new Map<string, ResponseChecker>();

/** The checker of a document; documents that differ only in `servers` (the port) share one. */
export function responseChecker(document: Json): ResponseChecker {
  const key = JSON.stringify({ ...document, servers: [] });
  let checker = checkers.get(key);
  if (!checker) checkers.set(key, (checker = newChecker(document)));
  return checker;
}

/** A validator of the schema at a JSON pointer of the document (URI-encoded, as `escapePointer` writes it). */
export function schemaValidators(document: Json): (pointer: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv); // a CommonJS module: its plugin is the default export's `default`
  ajv.addSchema(document, DOCUMENT);
  const validators = new Map<string, ValidateFunction>();
  return (pointer) => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.getSchema(`${DOCUMENT}#${pointer}`);
      if (!validate) throw new Error(`the document has no schema at ${pointer}`);
      validators.set(pointer, validate);
    }
    return validate;
  };
}

function newChecker(document: Json): ResponseChecker {
  const validatorAt = schemaValidators(document);
  const operations = operationTable(document);
  let checked = 0;
  return {
    get checked() {
      return checked;
    },
    problems(answer) {
      checked += 1;
      const path = answer.path.split('?')[0]!;
      const found = operationOf(operations, answer.method, path);
      const headers = headerMap(answer.headers);
      if (!found) return undocumentedAnswer(answer, headers, validatorAt);
      const where = `${answer.method.toUpperCase()} ${found.template} ${answer.status}`;
      const responsePointer = `${found.pointer}/responses/${answer.status}`;
      const declared = (found.operation.responses as Json)[String(answer.status)] as Json | undefined;
      if (!declared) return [`${where}: the document declares no answer with this status`];
      const { value: response, pointer } = resolved(document, declared, responsePointer);
      return [
        ...headerProblems(document, response, headers, validatorAt, pointer),
        ...bodyProblems(response, headers, answer.body, validatorAt, pointer),
      ].map((problem) => `${where}: ${problem}`);
    },
  };
}

interface Operation {
  method: string;
  template: string;
  matcher: RegExp;
  literals: number;
  pointer: string;
  operation: Json;
}

function operationTable(document: Json): Operation[] {
  return Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      matcher: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
      literals: template.split('/').filter((part) => !part.startsWith('{')).length,
      pointer: `/paths/${escapePointer(template)}/${method}`,
      operation,
    })),
  );
}

/** The operation of a concrete path (or of its template); the most literal template wins. */
function operationOf(operations: Operation[], method: string, path: string): Operation | undefined {
  const candidates = operations.filter(
    (o) => o.method === method.toUpperCase() && (o.template === path || o.matcher.test(path)),
  );
  return candidates.sort((a, b) => b.literals - a.literals)[0];
}

/** An answer outside the document: an error must still be the envelope, with its request id. */
function undocumentedAnswer(
  answer: Answer,
  headers: Map<string, string>,
  validatorAt: (pointer: string) => ValidateFunction,
): string[] {
  if (answer.status < 400) return [];
  const where = `${answer.method.toUpperCase()} ${answer.path.split('?')[0]} ${answer.status} (not in the document)`;
  const problems: string[] = [];
  if (!headers.has('x-request-id')) problems.push('no X-Request-Id');
  if (mediaTypeOf(headers) !== 'application/json') problems.push(`content type ${headers.get('content-type')}`);
  else problems.push(...schemaProblems(validatorAt('/components/schemas/ErrorEnvelope'), parsed(answer.body), 'body'));
  return problems.map((problem) => `${where}: ${problem}`);
}

function headerProblems(
  document: Json,
  response: Json,
  headers: Map<string, string>,
  validatorAt: (pointer: string) => ValidateFunction,
  pointer: string,
): string[] {
  const problems: string[] = [];
  const declared = new Set<string>();
  for (const [name, entry] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const header = resolved(document, entry, `${pointer}/headers/${escapePointer(name)}`);
    declared.add(name.toLowerCase());
    const value = headers.get(name.toLowerCase());
    if (value === undefined) {
      if (header.value.required === true) problems.push(`header ${name} is required and missing`);
      continue;
    }
    const schema = resolved(document, header.value.schema as Json, `${header.pointer}/schema`).value;
    const typed =
      (schema.type === 'integer' || schema.type === 'number') && /^-?\d+$/.test(value) ? Number(value) : value;
    problems.push(...schemaProblems(validatorAt(`${header.pointer}/schema`), typed, `header ${name}`));
  }
  for (const name of headers.keys())
    if (!declared.has(name) && !TRANSPORT_HEADERS.has(name)) problems.push(`header ${name} is sent but not declared`);
  return problems;
}

function bodyProblems(
  response: Json,
  headers: Map<string, string>,
  body: string,
  validatorAt: (pointer: string) => ValidateFunction,
  pointer: string,
): string[] {
  const content = (response.content ?? {}) as Record<string, Json>;
  if (Object.keys(content).length === 0) return body === '' ? [] : ['a body is sent but none is declared'];
  const mediaType = mediaTypeOf(headers);
  if (mediaType === undefined || !(mediaType in content))
    return [`content type ${headers.get('content-type')} is not one of ${Object.keys(content).join(', ')}`];
  const value = /[/+]json$/.test(mediaType) ? parsed(body) : body;
  return schemaProblems(validatorAt(`${pointer}/content/${escapePointer(mediaType)}/schema`), value, 'body');
}

function schemaProblems(validate: ValidateFunction, value: unknown, what: string): string[] {
  if (value instanceof SyntaxError) return [`${what} is not JSON: ${value.message}`];
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message} (${e.schemaPath})`);
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    return error as SyntaxError;
  }
}

/** A `$ref` to the document's components followed, with the pointer of where it led. */
function resolved(document: Json, value: Json, pointer: string): { value: Json; pointer: string } {
  const ref = value.$ref;
  if (typeof ref !== 'string') return { value, pointer };
  const target = ref.slice(1);
  const found = target
    .split('/')
    .slice(1)
    .reduce<unknown>((at, part) => (at as Json | undefined)?.[unescapePointer(part)], document);
  if (typeof found !== 'object' || found === null) throw new Error(`the document has nothing at ${ref}`);
  return resolved(document, found as Json, target);
}

function headerMap(headers: Answer['headers']): Map<string, string> {
  const entries: [string, string][] = [];
  if (headers instanceof Headers) headers.forEach((value, name) => entries.push([name.toLowerCase(), value]));
  else
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined)
        entries.push([name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]);
  return new Map(entries);
}

function mediaTypeOf(headers: Map<string, string>): string | undefined {
  return headers.get('content-type')?.split(';')[0]!.trim().toLowerCase();
}

/** A JSON pointer segment, percent-encoded for a URI fragment (Ajv resolves `document#/a/b` as a URI). */
export function escapePointer(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function unescapePointer(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

const served = new Map<string, Promise<ResponseChecker>>();

/** The checker of the document the server at `origin` serves, read once per origin. */
export function servedChecker(origin: string): Promise<ResponseChecker> {
  let checker = served.get(origin);
  if (!checker) {
    checker = fetch(`${origin}/openapi.json`).then(async (response) =>
      responseChecker((await response.json()) as Json),
    );
    served.set(origin, checker);
  }
  return checker;
}

/**
 * fetch, with the answer checked against the document its server serves. `report` gets the problems; by default
 * they throw, failing the test at the call. The answer comes back whole, its body readable again.
 */
export async function checkedFetch(
  input: string | Request,
  init?: RequestInit,
  report: (problems: string[]) => void = throwProblems,
): Promise<Response> {
  const request = new Request(input, init);
  const response = await fetch(request);
  const body = await response.text();
  const url = new URL(request.url);
  const answer = { method: request.method, path: url.pathname, status: response.status, headers: response.headers };
  const problems = (await servedChecker(url.origin)).problems({ ...answer, body });
  if (problems.length > 0) report(problems);
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}

function throwProblems(problems: string[]): never {
  throw new Error(`an answer the OpenAPI document does not describe:\n${problems.join('\n')}`);
}
