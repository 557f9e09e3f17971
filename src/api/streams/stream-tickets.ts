// One-time tickets for the firm stream (docs/api.md#stream-tickets): a browser cannot set X-Service-Api-Key on a
// WebSocket upgrade, so a page asks for a ticket with its key (POST /v1/firm-ws/tickets) and opens
// /v1/firm-ws?ticket=…; the ticket stands for the caller that asked, once, within a minute of simulated time.
// Expired tickets are dropped as the map grows, and at most MAX_TICKETS are held (docs/api.md#memory-stays-bounded).
import { randomUUID } from 'node:crypto';
import type { Caller } from '../gateway/caller.js';
import { SweepSchedule } from '../gateway/sweep-schedule.js';

export const TICKET_SECONDS = 60;

/**
 * Tickets outstanding at most: with a manual clock nothing expires, so a page that asks again and again would grow the
 * map for good. Past this the oldest ticket goes first (its page asks for another when it reconnects).
 */
export const MAX_TICKETS = 10_000;

export class StreamTickets {
  private readonly tickets = new Map<string, { caller: Caller; expiresAtMs: number }>();
  private readonly sweeps = new SweepSchedule();

  clear(): void {
    this.tickets.clear();
  }

  /** How many tickets are held (expired ones included until a sweep). */
  get size(): number {
    return this.tickets.size;
  }

  issue(caller: Caller, nowMs: number): { ticket: string; expires_in: number } {
    this.sweeps.sweep(this.tickets, (held) => held.expiresAtMs <= nowMs);
    if (this.tickets.size >= MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
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
