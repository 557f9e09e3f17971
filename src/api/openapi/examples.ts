// An `example` beside the schema of every request body and answer of the OpenAPI document
// (docs/api.md#the-openapi-document): the operation's own example where it has one (example-values.ts), else the
// example of the named schema the body is, and for an error answer the envelope of its status.
import { COMPONENT_EXAMPLES, ERROR_EXAMPLES, EXAMPLE_REQUEST_ID, OPERATION_EXAMPLES } from './example-values.js';
import { operationsOf } from './lift-components.js';

type Json = Record<string, unknown>;

const SCHEMAS = '#/components/schemas/';

/** The error envelope of `status` as the sandbox writes it. */
export function errorExample(status: string): unknown {
  const example = ERROR_EXAMPLES[status];
  return example && { ...example, request_id: EXAMPLE_REQUEST_ID };
}

export function attachExamples(document: Json): void {
  for (const operation of operationsOf(document)) {
    const own = OPERATION_EXAMPLES[String(operation.operationId)] ?? {};
    for (const media of mediaOf(operation.requestBody)) exemplify(media, own.request);
    for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>))
      for (const media of mediaOf(response)) exemplify(media, own.answers?.[status], status);
  }
}

function mediaOf(holder: unknown): Json[] {
  return Object.values(((holder as Json | undefined)?.content ?? {}) as Record<string, Json>);
}

function exemplify(media: Json, own: unknown, status?: string): void {
  if (media.example !== undefined) return;
  const ref = (media.schema as Json | undefined)?.$ref;
  const name = typeof ref === 'string' && ref.startsWith(SCHEMAS) ? ref.slice(SCHEMAS.length) : undefined;
  const shared =
    name === 'ErrorEnvelope' && status !== undefined ? errorExample(status) : name && COMPONENT_EXAMPLES[name];
  const example = own ?? shared;
  if (example !== undefined) media.example = example;
}
