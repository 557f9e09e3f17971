// The simulator's state as a scenario reads it: the fields `expect` compares, and the final state written
// to state.json and the --json document.
import { canonicalSymbol, parseSymbol } from '../core/instruments.js';
import type { Kernel } from '../core/kernel/kernel.js';
import { orderStatesJson } from '../core/kernel/order-json.js';
import { fillToJson, positionToJson, tradeToJson } from '../core/positions/index.js';

export interface FinalState {
  accounts: Array<Record<string, unknown>>;
  orders: Array<Record<string, unknown>>;
  positions: Array<Record<string, unknown>>;
  fills: Array<Record<string, unknown>>;
  trades: Array<Record<string, unknown>>;
}

export const subjectFields = {
  account(kernel: Kernel, accountId: string): Record<string, unknown> {
    return kernel.accountJson(kernel.accounts.get(accountId));
  },
  order(kernel: Kernel, orderId: string): Record<string, unknown> {
    return kernel.desk.json(kernel.desk.get(orderId));
  },
  position(kernel: Kernel, accountId: string, instrument: string): Record<string, unknown> {
    const view = kernel.positions.position(accountId, canonicalSymbol(parseSymbol(instrument)));
    if (!view) return { net_quantity: 0, average_price: null, realized_pnl: '0', unrealized_pnl: '0' };
    return { ...positionToJson(view) };
  },
};

export function finalState(kernel: Kernel, accountIds: ReadonlyMap<string, string>): FinalState {
  const aliases = new Map([...accountIds].map(([alias, id]) => [id, alias]));
  const refs = [...kernel.accounts.all()];
  return {
    accounts: refs.map((a) => ({ alias: aliases.get(a.id) ?? null, ...kernel.accountJson(a) })),
    orders: [...kernel.desk.orders.values()].map((o) => ({ ...kernel.desk.json(o), states: orderStatesJson(o) })),
    positions: refs.flatMap((a) => kernel.positions.positions(a.id).map((p) => ({ ...positionToJson(p) }))),
    fills: refs.flatMap((a) => kernel.positions.fills(a.id).map((f) => ({ ...fillToJson(f) }))),
    trades: refs.flatMap((a) => kernel.positions.trades(a.id).map((t) => ({ ...tradeToJson(t) }))),
  };
}
