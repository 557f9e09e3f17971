// Sandbox control (docs/api.md#sandbox-control), platform admin keys only: the clock (read, advance by, to, or to
// the next session close or roll), market prints at the current time, fault windows, and reset to the seed.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parsePrint } from '../../core/kernel/write/print-input.js';
import { CommandRefusal, type FieldDetail } from '../../core/outcome.js';
import { ClockShape } from '../../core/shapes/clock.js';
import { parseDurationMs, parseTimeMs, TimeInputError } from '../../core/time.js';
import { ApiError, invalidRequest } from '../gateway/api-error.js';
import { FAULT_TARGETS } from '../sandbox/fault-windows.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { sessionScenario } from '../sandbox/session-export.js';
import { SESSION_EXPORT } from '../schemas/answer-headers.js';
import { errors } from '../schemas/common.js';
import { answer } from './answer.js';

const admin = { adminOnly: true } as const;
const ADMIN_ERRORS = errors(400, 401, 403, 413, 415, 429);

export const SandboxClockShape = Type.Object(
  { ...ClockShape.properties, mode: Type.Union([Type.Literal('manual'), Type.Literal('realtime')]) },
  { additionalProperties: false },
);

export const AdvanceBody = Type.Object(
  {
    to: Type.Optional(
      Type.Union([Type.String(), Type.Integer()], { description: 'an ISO 8601 time with an offset, or Unix ms' }),
    ),
    by: Type.Optional(
      Type.String({ pattern: '^\\d+(ms|s|m|h|d)$', description: 'a duration like 250ms, 15s, 30m, 2h or 1d' }),
    ),
    to_next: Type.Optional(Type.Union([Type.Literal('session_close'), Type.Literal('session_roll')])),
  },
  { additionalProperties: false, description: 'exactly one of to, by, to_next' },
);

/** The session export's answer: YAML text (docs/api.md#session-export), which a client reads as text, never as JSON. */
export const SessionExportShape = Type.String({
  contentMediaType: 'application/yaml',
  description: 'a scenario file that propsim replay runs: YAML text, not JSON (read the body as text)',
});

export const PrintsBody = Type.Object(
  {
    prints: Type.Array(
      Type.Object(
        {
          instrument_id: Type.String({ description: 'a GLOBEX symbol such as "ESH6"' }),
          price: Type.String({ description: 'a decimal string on the tick grid, such as "5000.25"' }),
          size: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);

export const FaultBody = Type.Object(
  {
    target: Type.Union(FAULT_TARGETS.map((t) => Type.Literal(t))),
    status: Type.Union([Type.Literal(421), Type.Literal(429), Type.Literal(502), Type.Literal(503)]),
    duration_ms: Type.Integer({ minimum: 1, description: 'how long the window stays open, in simulated ms' }),
    path_prefix: Type.Optional(
      Type.String({ pattern: '^/', description: 'only paths starting with this, like /v1/orders' }),
    ),
  },
  { additionalProperties: false },
);

export const sandboxRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox }> = async (app, { sandbox }) => {
  app.get(
    '/v1/sandbox/clock',
    {
      config: { policy: admin },
      schema: {
        tags: ['sandbox'],
        operationId: 'getSandboxClock',
        summary: 'The simulated clock',
        response: { 200: SandboxClockShape, ...ADMIN_ERRORS },
      },
    },
    async () => sandbox.clock(),
  );

  app.post(
    '/v1/sandbox/clock/advance',
    {
      config: { policy: admin },
      schema: {
        tags: ['sandbox'],
        operationId: 'advanceSandboxClock',
        summary: 'Advance the clock; everything due on the way happens',
        body: AdvanceBody,
        response: { 200: SandboxClockShape, ...errors(409), ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      answer(reply, await sandbox.advanceTo(() => targetOf(request.body, sandbox)));
      return sandbox.clock();
    },
  );

  app.post(
    '/v1/sandbox/market/prints',
    {
      config: { policy: admin },
      schema: {
        tags: ['sandbox'],
        operationId: 'postMarketPrints',
        summary: 'Trade prints at the current time: the venue matches, then accounts are marked',
        body: PrintsBody,
        response: { 200: Type.Object({ accepted: Type.Integer() }, { additionalProperties: false }), ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const prints = request.body.prints;
      // All or nothing: every print is checked before the first reaches the market.
      const problems: FieldDetail[] = [];
      prints.forEach((p, i) => {
        try {
          parsePrint(p.instrument_id, p.price, p.size);
        } catch (error) {
          if (!(error instanceof CommandRefusal)) throw error;
          for (const d of error.details ?? []) problems.push({ field: `prints[${i}].${d.field}`, message: d.message });
        }
      });
      if (problems.length > 0) throw invalidRequest(problems);
      for (const p of prints)
        sandbox.kernel.dispatch({
          type: 'tick',
          instrument_id: p.instrument_id,
          price: p.price,
          ...(p.size === undefined ? {} : { size: p.size }),
        });
      return { accepted: prints.length };
    },
  );

  app.post(
    '/v1/sandbox/faults',
    {
      config: { policy: admin },
      schema: {
        tags: ['sandbox'],
        operationId: 'openFaultWindow',
        summary: 'Open a fault window: matching requests answer this status for duration_ms of simulated time',
        body: FaultBody,
        response: { 201: Type.Object({ fault_id: Type.String() }, { additionalProperties: false }), ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const { target, status, duration_ms: durationMs, path_prefix: pathPrefix } = request.body;
      const window = sandbox.openFault({
        target,
        status,
        untilMs: sandbox.kernel.nowMs + durationMs,
        ...(pathPrefix === undefined ? {} : { pathPrefix }),
      });
      reply.code(201);
      return { fault_id: window.faultId };
    },
  );

  app.delete(
    '/v1/sandbox/faults',
    {
      config: { policy: admin },
      schema: {
        tags: ['sandbox'],
        operationId: 'clearFaultWindows',
        summary: 'Close every fault window',
        response: { 200: Type.Object({ status: Type.Literal('ok') }), ...ADMIN_ERRORS },
      },
    },
    async () => {
      sandbox.clearFaults();
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/v1/sandbox/reset',
    {
      config: { policy: admin },
      schema: {
        tags: ['sandbox'],
        operationId: 'resetSandbox',
        summary: 'Back to the seed: a new kernel at the start time',
        response: { 200: SandboxClockShape, ...ADMIN_ERRORS },
      },
    },
    async () => {
      await sandbox.reset();
      return sandbox.clock();
    },
  );

  app.get(
    '/v1/sandbox/session.yaml',
    {
      config: { policy: admin },
      schema: {
        tags: ['sandbox'],
        operationId: 'exportSession',
        summary: 'The session so far as a scenario file that propsim replay runs to the same state and journal',
        response: {
          200: {
            description: 'A scenario file: YAML text, not JSON',
            headers: SESSION_EXPORT,
            content: { 'application/yaml': { schema: SessionExportShape } },
          },
          ...ADMIN_ERRORS,
        },
      },
    },
    async (_request, reply) => {
      const { yaml, eventsSha256 } = sessionScenario(await sandbox.journalText(), sandbox.config.calendar);
      return reply
        .type('application/yaml; charset=utf-8')
        .header('content-disposition', 'attachment; filename="session.yaml"')
        .header('x-events-sha256', eventsSha256)
        .send(yaml);
    },
  );
};

function targetOf(
  body: { to?: string | number; by?: string; to_next?: 'session_close' | 'session_roll' },
  sandbox: Sandbox,
): number {
  const given = (['to', 'by', 'to_next'] as const).filter((k) => body[k] !== undefined);
  if (given.length !== 1)
    throw invalidRequest([
      {
        field: 'body',
        message: `expected exactly one of to, by, to_next, got ${given.length === 0 ? 'none' : given.join(' and ')}`,
      },
    ]);
  const { kernel } = sandbox;
  try {
    if (body.to !== undefined) return parseTimeMs(body.to, 'to');
    if (body.by !== undefined) return kernel.nowMs + parseDurationMs(body.by, 'by');
  } catch (error) {
    if (error instanceof TimeInputError)
      throw invalidRequest([{ field: error.field, message: error.message.slice(error.field.length + 2) }]);
    throw error;
  }
  const session = kernel.calendar.sessionAtFamily(kernel.nowMs, kernel.rollFamily);
  if (body.to_next === 'session_close') return session.closeMs;
  if (body.to_next === 'session_roll') return kernel.calendar.nextSessionRollFamily(kernel.nowMs, kernel.rollFamily);
  throw new ApiError(500, 'internal', 'unreachable: one advance target was checked');
}
