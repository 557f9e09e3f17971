// What the order lifecycle model (order-lifecycle.model.test.ts) knows, seen from the outside: order snapshots
// and status histories, OCO groups, the fills published on the event bus, an independent FIFO ledger per
// account and instrument, the last print of each instrument, and the watches of the published events
// (fill-watch.ts, flattening-watch.ts).
import type { KernelEvent } from '../../src/core/kernel/events.js';
import type { FillJson } from '../../src/core/shapes/fill.js';
import { FillWatch } from './fill-watch.js';
import { FlatteningWatch } from './flattening-watch.js';
import type { RunSetup } from './kernel-command-arbs.js';
import type { Resolved } from './kernel-commands.js';
import { STARTING_BALANCE_CENTS, type Sim } from './kernel-sim.js';
import { instrumentOf, ticksOf } from './model-instruments.js';

export const STATUSES = new Set(['SUBMITTED', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED']);
export const TERMINAL = new Set(['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED']);
export const WORKING = new Set(['SUBMITTED', 'PARTIALLY_FILLED']);
/** The tight account (kernel-sim.ts tightPlan): $50,000, no commission. */
const TIGHT_STARTING_BALANCE_CENTS = 5_000_000;

export type Json = Record<string, unknown>;

/** A fill as published (fills.created): the API's shape, without order_id for a historical fill. */
export type { FillJson };

interface Lot {
  sign: 1 | -1;
  quantity: number;
  ticks: number;
}

/** The model's own ledger of one account in one instrument, fed only by the fills it saw published. */
export interface ModelPosition {
  lots: Lot[];
  realizedCents: number;
  commissionCents: number;
  /** Σ signed quantities of historical (order-less) fills. */
  historicalNet: number;
}

export interface ModelAccount {
  startingBalanceCents: number;
  commissionPerContractCents: number;
  positions: Map<string, ModelPosition>;
  fillCount: number;
}

export interface Seen {
  json: Json;
  states: Json[];
}

/** What the model knows of an order at the venue, from the outside: arrival, trigger, first print since (re)queueing.
 * */
export interface VenueView {
  arrived: boolean;
  /** Awaiting its first print since arrival, a priority-losing modify or its trigger (the limit pricing rule). */
  fresh: boolean;
  triggered: boolean;
}

export const sign = (side: unknown): 1 | -1 => (side === 'buy' ? 1 : -1);
export const priceTicksOf = (json: Json, field: 'limit_price' | 'stop_price') =>
  ticksOf(instrumentOf(json.instrument_id as string), json[field] as string);
export const hasStop = (json: Json) => json.type === 'stop' || json.type === 'stop_limit';
const stopHit = (json: Json, printTicks: number) =>
  json.side === 'buy' ? printTicks >= priceTicksOf(json, 'stop_price') : printTicks <= priceTicksOf(json, 'stop_price');

export class Model {
  readonly orders = new Map<string, Seen>();
  readonly groups = new Map<string, string[]>();
  readonly groupOf = new Map<string, string>();
  readonly accounts = new Map<string, ModelAccount>();
  readonly lastPrintTicks = new Map<string, number>();
  readonly lastFillTicks = new Map<string, number>();
  /** Fills published since the last check. */
  newFills: FillJson[] = [];
  /** orders.state events published per order. */
  readonly stateEvents = new Map<string, number>();
  readonly venue = new Map<string, VenueView>();
  /** For the print being run: whether each working order of its instrument met it as its first print since
   * (re)queueing. */
  readonly freshAtPrint = new Map<string, boolean>();
  readonly fills: FillWatch;
  readonly flattening: FlatteningWatch;
  /** Counts of what the run went through, so the property can show it is not vacuous. */
  readonly seen = {
    fills: 0,
    riskFills: 0,
    riskRefusals: 0,
    crossInstrumentOcoCancels: 0,
    breaches: 0,
    rejectedLocked: 0,
    drainRounds: 0,
  };

  readonly latencyMs: number;

  constructor(sim: Sim, setup: RunSetup) {
    this.latencyMs = setup.fillModel.latencyMs;
    const commissions = [0, setup.commissionCents, 0];
    const startingBalances = [STARTING_BALANCE_CENTS, STARTING_BALANCE_CENTS, TIGHT_STARTING_BALANCE_CENTS];
    sim.accountIds.forEach((id, i) => {
      this.accounts.set(id, {
        startingBalanceCents: startingBalances[i]!,
        commissionPerContractCents: commissions[i]!,
        positions: new Map(),
        fillCount: 0,
      });
    });
    this.fills = new FillWatch(sim.kernel);
    this.flattening = new FlatteningWatch(sim.kernel);
    sim.kernel.events$.subscribe((event: KernelEvent) => {
      if (event.type === 'fills.created') this.newFills.push(event.data as unknown as FillJson);
      if (
        event.type === 'accounts.locked' &&
        (event.data.lock === 'max_loss_breach' || event.data.lock === 'daily_loss_breach')
      )
        this.seen.breaches++;
      if (event.type === 'orders.state') {
        const id = event.data.order_id as string;
        this.stateEvents.set(id, (this.stateEvents.get(id) ?? 0) + 1);
      }
    });
  }

  /** Before a print: stops of its instrument at or through it trigger (and meet it fresh); which orders meet it fresh.
   * */
  beforePrint(symbol: string, printTicks: number): void {
    this.freshAtPrint.clear();
    for (const [id, { json }] of this.orders) {
      const venue = this.venue.get(id)!;
      if (json.instrument_id !== symbol || !venue.arrived || !WORKING.has(json.status as string)) continue;
      if (hasStop(json) && !venue.triggered && stopHit(json, printTicks)) {
        venue.triggered = true;
        venue.fresh = true;
      }
      this.freshAtPrint.set(id, venue.fresh);
    }
  }

  status(id: string): string | undefined {
    return this.orders.get(id)?.json.status as string | undefined;
  }

  position(accountId: string, symbol: string): ModelPosition {
    const positions = this.accounts.get(accountId)!.positions;
    let position = positions.get(symbol);
    if (!position)
      positions.set(symbol, (position = { lots: [], realizedCents: 0, commissionCents: 0, historicalNet: 0 }));
    return position;
  }

  /** The price an instrument's positions are marked at: its last print, else its last fill
   * (docs/risk-rules.md#balance-and-equity). */
  markTicks(symbol: string): number | undefined {
    return this.lastPrintTicks.get(symbol) ?? this.lastFillTicks.get(symbol);
  }

  /** Books a fill FIFO and answers the realized P&L the rules give it
   * (docs/order-lifecycle.md#positions-trades-and-lots). */
  book(accountId: string, symbol: string, sign: 1 | -1, quantity: number, ticks: number): number {
    const account = this.accounts.get(accountId)!;
    const position = this.position(accountId, symbol);
    const tickValueCents = instrumentOf(symbol).tickValueCents;
    let remaining = quantity;
    let realized = 0;
    while (remaining > 0 && position.lots.length > 0 && position.lots[0]!.sign !== sign) {
      const lot = position.lots[0]!;
      const closed = Math.min(lot.quantity, remaining);
      realized += (ticks - lot.ticks) * closed * lot.sign * tickValueCents;
      lot.quantity -= closed;
      remaining -= closed;
      if (lot.quantity === 0) position.lots.shift();
    }
    if (remaining > 0) position.lots.push({ sign, quantity: remaining, ticks });
    position.realizedCents += realized;
    position.commissionCents += account.commissionPerContractCents * quantity;
    account.fillCount++;
    return realized;
  }

  unrealizedCents(accountId: string, symbol: string): number {
    const mark = this.markTicks(symbol);
    const lots = this.accounts.get(accountId)!.positions.get(symbol)?.lots ?? [];
    if (mark === undefined) return 0;
    return lots.reduce(
      (sum, lot) => sum + (mark - lot.ticks) * lot.quantity * lot.sign * instrumentOf(symbol).tickValueCents,
      0,
    );
  }
}

/** One command being checked. */
export interface Context {
  sim: Sim;
  model: Model;
  setup: RunSetup;
  command: Resolved;
  where: string;
  /** Close of the session the run is in, for the property that crosses it. */
  closeMs?: number;
}
