// User sessions (docs/api.md#keys-and-login): HS256 JWTs whose `exp` is on the simulated clock, so an integrator
// can reach an expiry by advancing time. The secret is the durable store's (tokens outlive a restart), else made per
// process; logout and refresh revoke a token by id.
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';

export const SESSION_SECONDS = 3600;

export interface SessionClaims {
  userId: string;
  firmId: string;
  email: string;
  tokenId: string;
  expiresAtMs: number;
}

export type TokenCheck =
  { ok: true; claims: SessionClaims } | { ok: false; code: 'token_expired' | 'invalid_credentials' };

export class SessionTokens {
  constructor(private readonly secret: Uint8Array = randomBytes(32)) {}

  /** A signed token, with its id and expiry (what a refresh carries a session's streams over to). */
  async issue(
    user: { userId: string; firmId: string; email: string },
    nowMs: number,
  ): Promise<{ token: string; tokenId: string; expiresAtMs: number }> {
    const nowSeconds = Math.floor(nowMs / 1000);
    const tokenId = randomUUID();
    const token = await new SignJWT({ firm: user.firmId, email: user.email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.userId)
      .setJti(tokenId)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + SESSION_SECONDS)
      .sign(this.secret);
    return { token, tokenId, expiresAtMs: (nowSeconds + SESSION_SECONDS) * 1000 };
  }

  async verify(token: string, nowMs: number, revoked: { has(tokenId: string): boolean }): Promise<TokenCheck> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'], currentDate: new Date(nowMs) });
      const claims: SessionClaims = {
        userId: String(payload.sub),
        firmId: String(payload.firm),
        email: String(payload.email),
        tokenId: String(payload.jti),
        expiresAtMs: (payload.exp ?? 0) * 1000,
      };
      if (revoked.has(claims.tokenId)) return { ok: false, code: 'invalid_credentials' };
      return { ok: true, claims };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, code: 'token_expired' };
      return { ok: false, code: 'invalid_credentials' };
    }
  }
}

/** Whether a bearer token looks like a JWT rather than a firm key. */
export function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3;
}
