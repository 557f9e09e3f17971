// The sandbox's Fastify app, built from its dependencies (docs/architecture.md#layout): `propsim serve` only starts
// it, and tests call it with inject(). The gateway runs as hooks in the order docs/api.md#gateway promises: request
// id, gateway fault window, credentials and the route's policy, rate limit, body parsing and validation, then the
// downstream fault window and the handler.
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type HookHandlerDoneFunction,
} from 'fastify';
import { authenticate, triesToAuthenticate } from './gateway/authenticate.js';
import { installDurableAnswers } from './gateway/durable-answers.js';
import { installErrorEnvelope } from './gateway/error-envelope.js';
import { FailedAuthLimit } from './gateway/failed-auth-limit.js';
import { downstreamFault, gatewayFault } from './gateway/fault-hooks.js';
import { installJsonParser } from './gateway/json-body.js';
import { installRateLimit } from './gateway/rate-limit.js';
import { requestIdOf } from './gateway/request-id.js';
import { requireRoutePolicies } from './gateway/route-policies.js';
import { requireOpenSession } from './gateway/session-open.js';
import { validatorCompiler } from './gateway/validation.js';
import { openApiOptions } from './openapi.js';
import { accountOperationRoutes } from './routes/account-operations.js';
import { adminQueryRoutes } from './routes/admin-query.js';
import { authRoutes } from './routes/auth.js';
import { balanceRoutes } from './routes/balances.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { firmControlRoutes } from './routes/firm-control.js';
import { healthRoutes } from './routes/health.js';
import { orderRoutes } from './routes/orders.js';
import { sandboxRoutes } from './routes/sandbox-control.js';
import { tradingReadRoutes } from './routes/trading-reads.js';
import { unsimulatedRoutes } from './routes/unsimulated.js';
import type { Sandbox } from './sandbox/sandbox.js';
import { streamRoutes } from './streams/stream-routes.js';

/** Where @fastify/swagger-ui serves the interactive reference. */
const DOCS_PREFIX = '/docs';

export interface AppDeps {
  sandbox: Sandbox;
  /** Fastify's logger: false (tests), or a level for `serve --log-level`. */
  logger?: FastifyServerOptions['logger'];
  /** Unsent bytes a stream socket may hold before it is closed as a slow consumer (default 1 MiB). */
  streamBufferLimitBytes?: number;
  /** `serve --clock realtime`: moves the kernel to the wall clock's time before each request. */
  realtime?: { catchUp(): Promise<void> | undefined };
  /** The failed-authentication limit, when not the seed's (the simulation's own app for storms of wrong logins). */
  failedAuthLimit?: { perSecond: number; burst: number };
}

export async function buildApp({
  sandbox,
  logger = false,
  streamBufferLimitBytes,
  realtime,
  failedAuthLimit = sandbox.seed.failedAuthLimit,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    genReqId: requestIdOf,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  requireRoutePolicies(app, DOCS_PREFIX);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const failedAuth = new FailedAuthLimit(failedAuthLimit);
  installErrorEnvelope(app, failedAuth);
  installJsonParser(app);

  // Cookie parsing and serializing only, without the plugin's hooks on every request: the gateway parses the
  // session cookie when no header credential came, and login sets it (routes/auth.ts).
  await app.register(cookie, { hook: false });
  // Before the gateway's hooks: its own onRequest marks an upgrade request, so that a refused upgrade (401, 403)
  // has its socket closed once answered. No compression: the streams write ready-made frames under ws, which
  // must send its own at once to keep the order (streams/stream-socket.ts), and compressing makes ws queue them.
  await app.register(websocket, { options: { maxPayload: 64 * 1024, perMessageDeflate: false } });
  // Callback-style hooks: with a key (the common case) nothing here waits, so no promise is made per request.
  const gateway = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.header('x-request-id', request.id);
    gatewayFault(request, sandbox);
    const authenticates = triesToAuthenticate(request);
    failedAuth.check(request, authenticates);
    const verifying = authenticate(request, sandbox);
    if (!verifying) return done();
    // A session token is judged once verified: the limit is asked again then (failures answered meanwhile count),
    // and a bad token is charged at once (failed-auth-limit.ts).
    verifying.then(
      () => {
        try {
          failedAuth.check(request, authenticates);
        } catch (limited) {
          return done(limited as Error);
        }
        done();
      },
      (error: unknown) => done(failedAuth.judged(request, error) as Error),
    );
  };
  // A realtime clock first moves the kernel to the time the request came at (tokens expire, windows close by it).
  app.addHook('onRequest', (request, reply, done) => {
    const catchingUp = realtime?.catchUp();
    // A refusal the gateway throws after the catch-up is the request's answer, as it is without one.
    if (catchingUp) catchingUp.then(() => gateway(request, reply, done)).catch(done);
    else gateway(request, reply, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    // The body has come: a session admitted before it may have ended meanwhile (a reset, a logout, the clock).
    requireOpenSession(request.caller, sandbox);
    downstreamFault(request, sandbox);
    done();
  });
  installDurableAnswers(app, sandbox);

  await installRateLimit(app, sandbox.seed.rateLimit);
  await app.register(swagger, openApiOptions());
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { docExpansion: 'list', deepLinking: true } });

  const routes = { sandbox };
  await app.register(healthRoutes, routes);
  await app.register(authRoutes, { sandbox, failedAuth });
  await app.register(orderRoutes, routes);
  await app.register(tradingReadRoutes, routes);
  await app.register(balanceRoutes, routes);
  await app.register(firmControlRoutes, routes);
  await app.register(accountOperationRoutes, routes);
  await app.register(adminQueryRoutes, routes);
  await app.register(sandboxRoutes, routes);
  await app.register(unsimulatedRoutes, routes);
  await app.register(dashboardRoutes, routes);
  await app.register(streamRoutes, {
    sandbox,
    ...(streamBufferLimitBytes === undefined ? {} : { bufferLimitBytes: streamBufferLimitBytes }),
  });
  return app;
}
