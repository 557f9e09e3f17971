// The order model's checks of fills (order-lifecycle.model.test.ts): each fill against the fill model
// (docs/order-lifecycle.md "Fills"), the prints (what an unlimited print must fill, how a sized one is shared),
// OCO groups (one fill cancels the others, whatever their instrument), and the positions and cash of each
// account in each instrument against the model's own FIFO ledger.
import { atMost, centsOf, contains, deepEq, eq, matches, ok } from './model-assert.js';
import { INSTRUMENTS, instrumentOf, ticksOf } from './model-instruments.js';
import { riskItem } from './model-kernel.js';
import {
  TERMINAL,
  WORKING,
  priceTicksOf,
  sign,
  type Context,
  type FillJson,
  type Json,
  type Seen,
} from './order-model-state.js';

/** The locks of a breach, also the reasons it cancels a client order with (docs/risk-rules.md#what-a-breach-does). */
const BREACH_LOCKS = ['max_loss_breach', 'daily_loss_breach'];

/** True when a print at `printTicks` (unlimited size) must fill the order, were it resting at the venue. */
function fillableAt(ctx: Context, id: string, json: Json, printTicks: number): boolean {
  const triggered = ctx.model.venue.get(id)!.triggered;
  const buy = json.side === 'buy';
  const touch = ctx.setup.fillModel.limitFill === 'touch';
  const limitOk = () => {
    const limit = priceTicksOf(json, 'limit_price');
    const edge = buy ? limit - printTicks : printTicks - limit;
    return touch ? edge >= 0 : edge > 0;
  };
  switch (json.type) {
    case 'market':
      return true;
    case 'limit':
      return limitOk();
    case 'stop':
      return triggered;
    default:
      return triggered && limitOk();
  }
}

export function checkFill(ctx: Context, fill: FillJson, current: Map<string, Seen>): void {
  const { command, sim, setup, model } = ctx;
  const where = `${ctx.where} fill ${fill.execution_id} (${fill.side} ${fill.quantity} ${fill.instrument_id})`;
  const now = sim.kernel.nowMs;
  const instrument = instrumentOf(fill.instrument_id);
  const priceTicks = ticksOf(instrument, fill.price);
  if (command.kind === 'fill') {
    eq('order_id' in fill, false, `${where}: a historical fill has no order (its order_id is left out)`);
    matches(
      fill,
      {
        account_id: command.accountId,
        instrument_id: command.symbol,
        side: command.side,
        quantity: command.quantity,
        price: command.price,
        occurred_at: command.occurredAtMs ?? now,
      },
      `${where}: a historical fill is booked as given, without an order`,
    );
    model.position(fill.account_id, fill.instrument_id).historicalNet += sign(fill.side) * fill.quantity;
  } else {
    eq(command.kind, 'print', `${where}: venue fills happen only at prints`);
    if (command.kind !== 'print') return;
    const order = current.get(fill.order_id ?? '')?.json;
    if (!order) throw new Error(`${where}: the fill names order ${fill.order_id}, which the kernel never accepted`);
    eq(fill.instrument_id, command.symbol, `${where}: a print fills orders of its own instrument only`);
    deepEq(
      [fill.account_id, fill.instrument_id, fill.side],
      [order.account_id, order.instrument_id, order.side],
      `${where}: the fill is on the order's account, instrument and side`,
    );
    eq(fill.occurred_at, now, `${where}: a venue fill happens at the print`);
    atMost(
      (order.created_at as number) + setup.fillModel.latencyMs,
      now,
      `${where}: an order fills only at prints after its arrival (latency ${setup.fillModel.latencyMs} ms)`,
    );
    const buy = order.side === 'buy';
    const p = command.priceTicks;
    const venue = model.venue.get(fill.order_id!)!;
    if (order.type === 'market' || order.type === 'stop') {
      if (order.type === 'stop')
        eq(venue.triggered, true, `${where}: a stop fills only once triggered (a print at or through its stop)`);
      eq(
        priceTicks,
        buy ? p + setup.fillModel.slippageTicks : p - setup.fillModel.slippageTicks,
        `${where}: a market (or triggered stop) fills at the print moved ${setup.fillModel.slippageTicks} ticks against it`,
      );
    } else {
      if (order.type === 'stop_limit')
        eq(venue.triggered, true, `${where}: a stop-limit fills only once triggered (a print at or through its stop)`);
      const limit = priceTicksOf(order, 'limit_price');
      const edge = buy ? limit - p : p - limit;
      eq(
        setup.fillModel.limitFill === 'touch' ? edge >= 0 : edge > 0,
        true,
        `${where}: a limit fills only at a print at (touch) or through (through) its limit: print ${p}, limit ${limit}`,
      );
      const fresh = model.freshAtPrint.get(fill.order_id!) === true;
      eq(
        priceTicks,
        fresh ? p : limit,
        `${where}: a limit fills at the print when marketable against its first print since arrival (modify, trigger), else at its limit (print ${p}, limit ${limit}, first print: ${fresh})`,
      );
    }
  }
  model.seen.fills++;
  if (fill.order_id !== undefined && current.get(fill.order_id)?.json.origin === 'risk') model.seen.riskFills++;
  const account = model.accounts.get(fill.account_id)!;
  const realized = model.book(fill.account_id, fill.instrument_id, sign(fill.side), fill.quantity, priceTicks);
  eq(
    centsOf(fill.realized_pnl),
    realized,
    `${where}: realized P&L of a fill = Σ (close − open) × qty × tick value (${instrument.tickValueCents} cents) over the FIFO lots it closes`,
  );
  eq(
    centsOf(fill.commission),
    account.commissionPerContractCents * fill.quantity,
    `${where}: commission = per-contract commission × quantity`,
  );
  model.lastFillTicks.set(fill.instrument_id, priceTicks);
}

/** Each account's positions and cash against the model's ledger: net, realized, commission, unrealized, balance,
 * equity. */
export function checkAccounts(ctx: Context, current: Map<string, Seen>): void {
  const { sim, model } = ctx;
  for (const [accountId, account] of model.accounts) {
    const where = `${ctx.where} account ${accountId}`;
    const fills = sim.kernel.internals().positions.fills(accountId);
    eq(fills.length, account.fillCount, `${where}: the position book holds every fill published`);
    let unrealizedTotal = 0;
    for (const instrument of INSTRUMENTS) {
      const symbol = instrument.symbol;
      const at = `${where} ${symbol}`;
      const mine = model.position(accountId, symbol);
      const position = sim.kernel.internals().positions.position(accountId, symbol);
      const fillsOf = fills.filter((f) => f.symbol === symbol);
      const net = position?.netQuantity ?? 0;
      const netOfFills = fillsOf.reduce((sum, f) => sum + sign(f.side) * f.quantity, 0);
      const ordersHere = [...current.values()].filter(
        (o) => o.json.account_id === accountId && o.json.instrument_id === symbol,
      );
      const netOfOrders =
        ordersHere.reduce((sum, o) => sum + sign(o.json.side) * (o.json.filled_quantity as number), 0) +
        mine.historicalNet;
      const netOfLots = mine.lots.reduce((sum, lot) => sum + lot.sign * lot.quantity, 0);
      eq(net, netOfFills, `${at}: net position = Σ signed fill quantities`);
      eq(
        net,
        netOfOrders,
        `${at}: net position = Σ signed filled quantities of its orders (client's and risk engine's) + its historical fills`,
      );
      eq(net, netOfLots, `${at}: net position = the model's open FIFO lots`);
      eq(
        position?.realizedCents ?? 0,
        fillsOf.reduce((sum, f) => sum + f.realizedCents, 0),
        `${at}: position realized P&L = Σ its fills' realized P&L`,
      );
      eq(
        position?.realizedCents ?? 0,
        mine.realizedCents,
        `${at}: position realized P&L = the model's FIFO realized P&L`,
      );
      eq(
        position?.commissionCents ?? 0,
        fillsOf.reduce((sum, f) => sum + f.commissionCents, 0),
        `${at}: position commission = Σ its fills' commissions`,
      );
      const unrealized = model.unrealizedCents(accountId, symbol);
      eq(
        position?.unrealizedCents ?? 0,
        unrealized,
        `${at}: unrealized P&L = Σ open lots (mark − open) × qty × tick value, mark = last print of the instrument else its last fill`,
      );
      unrealizedTotal += unrealized;
    }
    const realized = [...account.positions.values()].reduce((sum, p) => sum + p.realizedCents, 0);
    const commission = [...account.positions.values()].reduce((sum, p) => sum + p.commissionCents, 0);
    const balance = riskItem(sim.kernel, accountId);
    eq(
      centsOf(balance.balance),
      account.startingBalanceCents + realized - commission,
      `${where}: balance = the model's starting balance + realized − commissions over every instrument`,
    );
    eq(
      centsOf(balance.equity),
      centsOf(balance.balance) + unrealizedTotal,
      `${where}: equity = balance + unrealized P&L of every instrument`,
    );
  }
}

export function checkPrint(ctx: Context, current: Map<string, Seen>, fills: readonly FillJson[]): void {
  const { command, model } = ctx;
  if (command.kind !== 'print') return;
  const venueFilled = fills.reduce((sum, f) => sum + f.quantity, 0);
  atMost(
    venueFilled,
    command.size ?? Infinity,
    `${ctx.where}: a print of size ${command.size ?? 'unlimited'} fills at most that size in all`,
  );
  const filledGroups = new Set(fills.map((f) => model.groupOf.get(f.order_id!)).filter((g) => g !== undefined));
  const printed = new Set(fills.map((f) => f.instrument_id));
  for (const [id, { json, states }] of current) {
    const where = `${ctx.where} order ${id} (${json.side} ${json.instrument_id} ${json.type} ${json.time_in_force})`;
    const status = json.status as string;
    const was = model.status(id);
    const risk = json.origin === 'risk';
    if (was !== undefined && WORKING.has(was) && TERMINAL.has(status)) {
      contains(['FILLED', 'CANCELLED'], status, `${where}: a print ends an order only by filling or cancelling it`);
      if (status === 'CANCELLED') {
        const reason = states.at(-1)!.reason;
        const allowed = [
          json.time_in_force === 'ioc'
            ? 'ioc_remainder_cancelled'
            : json.time_in_force === 'fok'
              ? 'fok_not_filled'
              : undefined,
        ];
        if (filledGroups.has(model.groupOf.get(id) ?? '')) allowed.push('oco_sibling_filled');
        if (reason === 'oco_sibling_filled' && !printed.has(json.instrument_id as string))
          model.seen.crossInstrumentOcoCancels++;
        // The fills re-size the risk engine's closing orders; a breach at the mark cancels the client's.
        if (risk) allowed.push('flatten_resized');
        else
          allowed.push(
            ...BREACH_LOCKS.filter((lock) => model.fills.account(json.account_id as string).locks.has(lock)),
          );
        contains(
          allowed,
          reason,
          `${where}: a print cancels only an IOC/FOK remainder, an OCO sibling of an order it filled, a re-sized closing order, or the client orders of an account it breached`,
        );
      }
    }
    // Orders of this instrument that had reached the venue before the print (not those it made the risk engine send).
    if (json.instrument_id !== command.symbol || !model.venue.get(id)?.arrived || !WORKING.has(status)) continue;
    eq(
      json.time_in_force === 'ioc' || json.time_in_force === 'fok',
      false,
      `${where}: IOC/FOK orders are settled at the first print after arrival`,
    );
    if (command.size === undefined) {
      eq(
        fillableAt(ctx, id, json, command.priceTicks),
        false,
        `${where}: an unlimited print at ${command.price} fills every resting order it can fill (order still ${status})`,
      );
    }
  }
  if (command.size !== undefined) checkSharing(ctx, current, fills, command.size, command.priceTicks);
}

/**
 * A sized print is shared by price, then arrival (docs/order-lifecycle.md#fill-model): no order the print could fill
 * goes short while an
 * order at a strictly worse price gets some, and an order going short means the print's size was used up.
 * Exempt: a FOK the remaining size cannot fill whole, and an OCO member cancelled because a sibling filled first.
 */
function checkSharing(
  ctx: Context,
  current: Map<string, Seen>,
  fills: readonly FillJson[],
  size: number,
  printTicks: number,
): void {
  const { model } = ctx;
  const got = new Map<string, number>();
  for (const f of fills) got.set(f.order_id!, (got.get(f.order_id!) ?? 0) + f.quantity);
  const candidates: Array<{ id: string; edge: number; short: boolean }> = [];
  for (const id of model.freshAtPrint.keys()) {
    const { json, states } = current.get(id)!;
    if (!fillableAt(ctx, id, json, printTicks)) continue;
    const before = model.orders.get(id)!.json;
    const remaining = (before.quantity as number) - (before.filled_quantity as number);
    const limit = json.type === 'limit' || json.type === 'stop_limit' ? priceTicksOf(json, 'limit_price') : undefined;
    const edge = limit === undefined ? Infinity : json.side === 'buy' ? limit - printTicks : printTicks - limit;
    const exempt = json.time_in_force === 'fok' || states.at(-1)!.reason === 'oco_sibling_filled';
    candidates.push({ id, edge, short: !exempt && (got.get(id) ?? 0) < remaining });
  }
  const used = fills.reduce((sum, f) => sum + f.quantity, 0);
  for (const short of candidates.filter((c) => c.short)) {
    eq(
      used,
      size,
      `${ctx.where}: order ${short.id} could fill at this print yet went short, so the print's size ${size} must be used up`,
    );
    for (const other of candidates) {
      if ((got.get(other.id) ?? 0) > 0)
        ok(
          !(short.edge > other.edge),
          `${ctx.where}: price priority: ${short.id} (${short.edge} ticks through) went short while ${other.id} (${other.edge} ticks through) got a fill`,
        );
    }
  }
}

export function checkOco(ctx: Context, current: Map<string, Seen>, fills: readonly FillJson[]): void {
  for (const fill of fills) {
    const group = fill.order_id === undefined ? undefined : ctx.model.groupOf.get(fill.order_id);
    if (group === undefined) continue;
    for (const member of ctx.model.groups.get(group)!) {
      if (member === fill.order_id) continue;
      const status = current.get(member)!.json.status as string;
      eq(
        WORKING.has(status),
        false,
        `${ctx.where}: OCO ${group}: ${fill.order_id} filled, so sibling ${member} must not be working (it is ${status})`,
      );
    }
  }
}
