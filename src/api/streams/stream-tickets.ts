// One-time tickets for the firm stream (docs/api.md#stream-tickets): a browser cannot set X-Service-Api-Key on a
// WebSocket upgrade, so a page asks for a ticket with its key (POST /v1/firm-ws/tickets) and opens
// /v1/firm-ws?ticket=…; the ticket stands for the caller that asked, once, within a minute of simulated time.
import { randomUUID } from 'node:crypto';
import type { Caller } from '../gateway/caller.js';

export const TICKET_SECONDS = 60;

export class StreamTickets {
  private readonly tickets = new Map<string, { caller: Caller; expiresAtMs: number }>();

  clear(): void {
    this.tickets.clear();
  }

  issue(caller: Caller, nowMs: number): { ticket: string; expires_in: number } {
    for (const [ticket, held] of this.tickets) if (held.expiresAtMs <= nowMs) this.tickets.delete(ticket);
    const ticket = `wst_${randomUUID()}`;
    this.tickets.set(ticket, { caller, expiresAtMs: nowMs + TICKET_SECONDS * 1000 });
    return { ticket, expires_in: TICKET_SECONDS };
  }

  /** The caller behind a ticket, which is then used up; undefined for an unknown, used or expired one. */
  take(ticket: string, nowMs: number): Caller | undefined {
    const held = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    return held && held.expiresAtMs > nowMs ? held.caller : undefined;
  }
}
