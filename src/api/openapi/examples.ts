// An `example` beside the schema of every request body and answer of the OpenAPI document
// (docs/api.md#the-openapi-document): what a real sandbox session sent and received (session-examples.json, written by
// `npm run openapi:examples` from scripts/openapi/example-session.ts), so that each operation shows its own outcome: a
// limit order resting, a modify answered before it lands, a cancel CANCELLED, a lockout locked. An error answer shows
// the envelope the session got for its status; 500, which no request makes, the envelope the sandbox would send.
import { operationsOf } from './lift-components.js';
import recorded from './session-examples.json' with { type: 'json' };

type Json = Record<string, unknown>;

/** Each operation's request body and answers by status, and the error envelope of each error status. */
export interface SessionExamples {
  operations: Record<string, { request?: unknown; answers: Record<string, unknown> }>;
  errors: Record<string, unknown>;
}

export const SESSION_EXAMPLES: SessionExamples = recorded;

const SCHEMAS = '#/components/schemas/';

/** A bug's answer (docs/api.md#errors): no request of the session can make one. */
const INTERNAL = { error: 'internal error: the sandbox logged it with this request id', code: 'internal' };

/** The error envelope of `status` as the sandbox writes it. */
export function errorExample(status: string): unknown {
  const recorded = SESSION_EXAMPLES.errors[status];
  if (recorded !== undefined || status !== '500') return recorded;
  const { request_id } = SESSION_EXAMPLES.errors['400'] as { request_id: string };
  return { ...INTERNAL, request_id };
}

export function attachExamples(document: Json): void {
  for (const operation of operationsOf(document)) {
    const own = SESSION_EXAMPLES.operations[String(operation.operationId)];
    for (const media of mediaOf(operation.requestBody)) exemplify(media, own?.request);
    for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>))
      for (const media of mediaOf(response)) exemplify(media, own?.answers[status], status);
  }
}

function mediaOf(holder: unknown): Json[] {
  return Object.values(((holder as Json | undefined)?.content ?? {}) as Record<string, Json>);
}

function exemplify(media: Json, own: unknown, status?: string): void {
  if (media.example !== undefined) return;
  const ref = (media.schema as Json | undefined)?.$ref;
  const envelope = ref === `${SCHEMAS}ErrorEnvelope` && status !== undefined;
  const example = own ?? (envelope ? errorExample(status) : undefined);
  if (example !== undefined) media.example = example;
}
