// Records the answers of a real sandbox session as the OpenAPI document's examples (docs/api.md#the-openapi-document):
// each call the session marks as an example keeps its request body and its answer under its operationId and status;
// an error answer marked as one keeps its envelope under its status. The few values a sandbox draws at random (a
// session token's id and signature, a stream ticket, a fault window's id) are written as fixed ones, so the examples
// are the same on every run; every request carries one fixed X-Request-Id.
import type { FastifyInstance } from 'fastify';

type Json = Record<string, unknown>;

export const EXAMPLE_REQUEST_ID = 'adc42724-9a3b-4f1e-8c55-2f0d6b7e1a90';
const FIXED_TOKEN_ID = '0c96bb02-a432-489b-b7fe-001977177d72';
const FIXED_SIGNATURE = 'c2lnbmF0dXJlIG9mIHRoZSBleGFtcGxl';
const FIXED_TICKET = 'wst_5c3f0e9a-2d7b-4e18-a6c1-f0b9d2e47a31';
const FIXED_FAULT_ID = '4ec15b2e-5dfa-465a-807d-d66ba9557a29';

export interface OperationExamples {
  request?: unknown;
  answers: Record<string, unknown>;
}

export interface RecordedExamples {
  operations: Record<string, OperationExamples>;
  /** The envelope of each error status. */
  errors: Record<string, unknown>;
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Send this raw payload instead of `body` as JSON (the 413 and 415 examples). */
  payload?: string;
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the session reads answers field by field
  body: any;
  text: string;
}

export class ExampleRecorder {
  readonly recorded: RecordedExamples = { operations: {}, errors: {} };

  constructor(private readonly app: FastifyInstance) {}

  /** The call, not kept. */
  async call(call: Call): Promise<Answer> {
    const response = await this.app.inject({
      method: call.method,
      url: call.url,
      headers: { 'x-request-id': EXAMPLE_REQUEST_ID, ...call.headers },
      ...(call.payload !== undefined
        ? { payload: call.payload }
        : call.body === undefined
          ? {}
          : { payload: call.body as Json }),
    });
    const json = (response.headers['content-type'] ?? '').toString().includes('json');
    return { status: response.statusCode, body: json ? JSON.parse(response.body) : response.body, text: response.body };
  }

  /** The call, its request body and answer kept as the examples of `operationId` (the first of each status). */
  async example(operationId: string, call: Call, expected: number, answer = (body: unknown) => body): Promise<Answer> {
    const made = await this.expect(call, expected);
    const kept = (this.recorded.operations[operationId] ??= { answers: {} });
    if (call.body !== undefined) kept.request ??= call.body;
    kept.answers[String(made.status)] ??= fixRandomValues(answer(made.body));
    return made;
  }

  /** The call, whose error envelope is kept as the example of its status. */
  async error(call: Call, expected: number, code: string): Promise<Answer> {
    const made = await this.expect(call, expected);
    if (made.body?.code !== code) throw new Error(`${call.method} ${call.url}: expected ${code}, got ${made.text}`);
    this.recorded.errors[String(expected)] ??= made.body;
    return made;
  }

  /** The call, which must answer `expected`. */
  async expect(call: Call, expected: number): Promise<Answer> {
    const made = await this.call(call);
    if (made.status !== expected)
      throw new Error(`${call.method} ${call.url}: expected ${expected}, got ${made.status} ${made.text}`);
    return made;
  }
}

/** A session token with its random id and signature fixed; a stream ticket and a fault window's id fixed. */
function fixRandomValues(value: unknown, key?: string): unknown {
  if (key === 'fault_id') return FIXED_FAULT_ID;
  if (Array.isArray(value)) return value.map((item) => fixRandomValues(item));
  if (typeof value === 'string') {
    if (/^wst_/.test(value)) return FIXED_TICKET;
    const jwt = /^(eyJ[\w-]+)\.([\w-]+)\.[\w-]+$/.exec(value);
    if (jwt) {
      const claims = JSON.parse(Buffer.from(jwt[2]!, 'base64url').toString('utf8')) as Json;
      const payload = Buffer.from(JSON.stringify({ ...claims, jti: FIXED_TOKEN_ID })).toString('base64url');
      return `${jwt[1]}.${payload}.${FIXED_SIGNATURE}`;
    }
    return value;
  }
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, fixRandomValues(inner, name)]));
}
