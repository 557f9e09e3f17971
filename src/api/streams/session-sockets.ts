// The trader streams (/v1/ws) opened with a session token, by token (docs/api.md#streams): a session's sockets close
// when the session ends — a logout, the token's expiry on the simulated clock, or a sandbox reset — with code 4001 and
// a reason saying which, so a client logs in again instead of listening to a socket its credentials no longer hold.
// A refresh carries the sockets over to the new token: the session goes on.
import type { WebSocket } from 'ws';

/** The close code of a stream whose session ended: log in again, then reconnect. */
export const SESSION_ENDED_CLOSE = 4001;

/** The close reasons, by what ended the session (docs/api.md#streams). */
export const SESSION_ENDED_BY = {
  logout: 'session ended: logged out',
  expiry: 'session expired; log in again',
  reset: 'session ended: the sandbox was reset; log in again',
  /** A logout or a refresh of its token between the upgrade's check and the socket's registration. */
  revocation: 'session ended: its token was revoked (logout or refresh); log in again',
} as const;

interface Session {
  expiresAtMs: number;
  sockets: Set<WebSocket>;
}

export class SessionSockets {
  private readonly byToken = new Map<string, Session>();

  /** Follows a socket opened with the token `tokenId`, until it closes. */
  add(tokenId: string, expiresAtMs: number, socket: WebSocket): void {
    let session = this.byToken.get(tokenId);
    if (!session) this.byToken.set(tokenId, (session = { expiresAtMs, sockets: new Set() }));
    session.sockets.add(socket);
    const held = session;
    socket.once('close', () => {
      held.sockets.delete(socket);
      if (held.sockets.size === 0 && this.byToken.get(tokenId) === held) this.byToken.delete(tokenId);
    });
  }

  /** A logout: the token's sockets close. */
  end(tokenId: string, reason: string): void {
    const session = this.byToken.get(tokenId);
    this.byToken.delete(tokenId);
    for (const socket of session?.sockets ?? []) closeSession(socket, reason);
  }

  /** A refresh: the old token's sockets now stand for the new one, and expire with it. */
  renew(oldTokenId: string, newTokenId: string, expiresAtMs: number): void {
    const session = this.byToken.get(oldTokenId);
    if (!session) return;
    this.byToken.delete(oldTokenId);
    session.expiresAtMs = expiresAtMs;
    this.byToken.set(newTokenId, session);
  }

  /** Closes the sockets of every token expired by `nowMs` (the clock moved). */
  endExpired(nowMs: number): void {
    for (const [tokenId, session] of this.byToken)
      if (session.expiresAtMs <= nowMs) this.end(tokenId, SESSION_ENDED_BY.expiry);
  }

  /** A reset ends every session. */
  endAll(reason: string): void {
    for (const tokenId of [...this.byToken.keys()]) this.end(tokenId, reason);
  }
}

function closeSession(socket: WebSocket, reason: string): void {
  if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
    socket.close(SESSION_ENDED_CLOSE, reason);
}
