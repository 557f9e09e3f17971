// User sessions (docs/api.md#keys-and-login): login with email and the seed's user_password, refresh, logout.
// The token comes back in the body and as the `session` cookie; it expires on the simulated clock.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Id } from '../../core/shapes/common.js';
import { ApiError } from '../gateway/api-error.js';
import type { FailedAuthLimit } from '../gateway/failed-auth-limit.js';
import { requireOpenSession } from '../gateway/session-open.js';
import { sameSecret } from '../gateway/secrets.js';
import { SESSION_SECONDS } from '../auth/session-tokens.js';
import type { Sandbox, Session } from '../sandbox/sandbox.js';
import { SESSION_COOKIE, sentWith } from '../schemas/answer-headers.js';
import { GATEWAY_ERRORS } from '../schemas/common.js';

const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, description: 'the email the user was provisioned with' }),
    password: Type.String({ minLength: 1, maxLength: 128 }),
    firm_slug: Type.Optional(
      Type.String({ minLength: 1, maxLength: 63, description: 'which firm, when the email is a user of several' }),
    ),
  },
  { additionalProperties: false },
);

const LoginHeaders = Type.Object({
  'x-device-fingerprint': Type.Optional(
    Type.String({
      maxLength: 256,
      description:
        'the device the user logs in from: two users of one firm on one device are flagged on the firm stream',
    }),
  ),
});

const SessionShape = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'seconds of simulated time' }),
    user: Type.Object({ user_id: Id, email: Type.String(), firm_slug: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

type SessionUser = { userId: string; firmId: string; email: string; firmSlug: string };

export const authRoutes: FastifyPluginAsyncTypebox<{ sandbox: Sandbox; failedAuth: FailedAuthLimit }> = async (
  app,
  { sandbox, failedAuth },
) => {
  async function startSession(reply: FastifyReply, user: SessionUser, refreshing?: Session) {
    const { token, tokenId, expiresAtMs } = await sandbox.tokens.issue(user, sandbox.kernel.nowMs);
    if (refreshing) sandbox.endRefresh(refreshing, { tokenId, expiresAtMs });
    reply.header('set-cookie', app.serializeCookie('session', token, { httpOnly: true, sameSite: 'lax', path: '/' }));
    return {
      access_token: token,
      token_type: 'Bearer' as const,
      expires_in: SESSION_SECONDS,
      user: { user_id: user.userId, email: user.email, firm_slug: user.firmSlug },
    };
  }

  app.post(
    '/v1/auth/login',
    {
      config: { policy: { public: true, firmKeyForbidden: true, checksPassword: true } },
      schema: {
        tags: ['auth'],
        operationId: 'login',
        summary: 'Log in a trader or staff member',
        security: [],
        headers: LoginHeaders,
        body: LoginBody,
        response: { 200: sentWith(SESSION_COOKIE, SessionShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      // The password is judged here, with the failed-authentication limit asked again and charged in the same step:
      // logins sent at once all passed the gateway's check before any failure was counted (failed-auth-limit.ts).
      failedAuth.check(request, true);
      const { email, password, firm_slug: firmSlug } = request.body;
      const users = sandbox.kernel.read
        .usersByEmail(email)
        .filter((u) => firmSlug === undefined || u.firm_slug === firmSlug);
      // The password is checked whether or not the email is known: the time taken says nothing of either.
      const passwordMatches = sameSecret(password, sandbox.seed.userPassword);
      if (users.length === 0 || !passwordMatches)
        throw failedAuth.judged(request, new ApiError(401, 'invalid_login', 'no user has this email and password'));
      if (users.length > 1)
        throw new ApiError(400, 'invalid_request', 'firm_slug: expected one of the firms of this email', [
          {
            field: 'firm_slug',
            message: `expected one of ${users.map((u) => u.firm_slug).join(', ')} (required: the email is a user of several firms), got nothing`,
          },
        ]);
      const user = users[0]!;
      const fingerprint = request.headers['x-device-fingerprint'];
      sandbox.login({
        userId: user.user_id,
        firmId: user.firm_id,
        fingerprint: typeof fingerprint === 'string' && fingerprint !== '' ? fingerprint : undefined,
        ip: request.ip,
        atMs: sandbox.kernel.nowMs,
      });
      return startSession(reply, {
        userId: user.user_id,
        firmId: user.firm_id,
        email: user.email,
        firmSlug: user.firm_slug,
      });
    },
  );

  app.post(
    '/v1/auth/refresh',
    {
      config: { policy: { users: true, firmKeyForbidden: true } },
      schema: {
        tags: ['auth'],
        operationId: 'refreshSession',
        summary: 'Swap the current session token for a new one',
        response: { 200: sentWith(SESSION_COOKIE, SessionShape), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const caller = sessionOf(request);
      // A token is refreshed once: it is checked and revoked in one step, before the new token is signed (which
      // waits), so a second refresh or a logout of it sent at once finds it revoked (401) and cannot leave a second
      // session standing.
      requireOpenSession(caller, sandbox);
      sandbox.beginRefresh(caller);
      // The gateway checked the token, so its user exists; if not (a bug), the caller gets a 401, never a 500.
      const identity = sandbox.kernel.read.user(caller.userId);
      if (!identity) throw new ApiError(401, 'invalid_credentials', 'the session token is not valid; log in again');
      const user = {
        userId: identity.user_id,
        firmId: identity.firm_id,
        email: identity.email,
        firmSlug: identity.firm_slug,
      };
      return startSession(reply, user, caller);
    },
  );

  app.post(
    '/v1/auth/logout',
    {
      config: { policy: { users: true, firmKeyForbidden: true } },
      schema: {
        tags: ['auth'],
        operationId: 'logout',
        summary: 'Revoke the current session token',
        response: { 200: sentWith(SESSION_COOKIE, Type.Object({ status: Type.Literal('ok') })), ...GATEWAY_ERRORS },
      },
    },
    async (request, reply) => {
      const caller = sessionOf(request);
      requireOpenSession(caller, sandbox); // a refresh of it at once may have revoked it since the gateway's check
      sandbox.endSession(caller);
      reply.header('set-cookie', app.serializeCookie('session', '', { path: '/', expires: new Date(0), maxAge: 0 }));
      return { status: 'ok' as const };
    },
  );
};

function sessionOf(request: FastifyRequest) {
  const caller = request.caller;
  if (caller.kind !== 'user')
    throw new ApiError(403, 'session_required', 'this route acts on a user session; log in first');
  return caller;
}
