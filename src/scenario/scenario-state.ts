// The simulator's state as a scenario reads it, through the kernel's read side: the fields `expect` compares, and
// the final state written to state.json and the --json document (the API's shapes, docs/api.md#shapes).
import { canonicalSymbol, parseSymbol } from '../core/instruments.js';
import type { Kernel } from '../core/kernel/kernel.js';
import type { Page, PageRequest } from '../core/kernel/read/paging.js';
import type { Outcome } from '../core/outcome.js';
import type { RiskStateJson } from '../core/shapes/account.js';
import type { FillJson, TradeJson } from '../core/shapes/fill.js';
import type { OrderJson, StatusRecordJson } from '../core/shapes/order.js';
import type { PositionJson } from '../core/shapes/position.js';

export interface FinalState {
  accounts: Array<RiskStateJson & { alias: string | null }>;
  orders: Array<OrderJson & { states: StatusRecordJson[] }>;
  positions: PositionJson[];
  fills: FillJson[];
  trades: TradeJson[];
}

/** Every scope: a scenario reads the whole simulator. */
const ALL = {};

export const subjectFields = {
  account(kernel: Kernel, accountId: string): Record<string, unknown> {
    return kernel.read.accountState(accountId) ?? {};
  },
  order(kernel: Kernel, orderId: string): Record<string, unknown> {
    const order = kernel.read.order(ALL, orderId);
    if (!order.ok) return {};
    const reason = subjectFields.orderStates(kernel, orderId).at(-1)?.reason;
    return {
      ...order.body,
      ...(order.body.error === undefined ? {} : { error_code: order.body.error.code }),
      ...(reason === undefined || reason === null ? {} : { status_reason: reason }),
    };
  },
  /** The order's status records, oldest first. */
  orderStates(kernel: Kernel, orderId: string): StatusRecordJson[] {
    const states = kernel.read.orderStates(ALL, orderId);
    return states.ok ? states.body.items : [];
  },
  position(kernel: Kernel, accountId: string, instrument: string): Record<string, unknown> {
    const position = kernel.read.position(accountId, canonicalSymbol(parseSymbol(instrument)));
    return position ?? { net_quantity: 0, realized_pnl: '0', unrealized_pnl: '0' };
  },
};

export function finalState(kernel: Kernel, accountIds: ReadonlyMap<string, string>): FinalState {
  const aliases = new Map([...accountIds].map(([alias, id]) => [id, alias]));
  const { read } = kernel;
  return {
    accounts: read.accountStates().map((item) => ({ alias: aliases.get(item.account_id) ?? null, ...item })),
    orders: everyPage((page) => read.orders(ALL, {}, page)).map((order) => ({
      ...order,
      states: subjectFields.orderStates(kernel, order.order_id),
    })),
    positions: everyPage((page) => read.positions(ALL, {}, page)),
    fills: everyPage((page) => read.fills(ALL, {}, page)),
    trades: everyPage((page) => read.trades(ALL, {}, page)),
  };
}

/** Every item of a paged list, page after page. */
function everyPage<T>(list: (page: PageRequest) => Outcome<Page<T>>): T[] {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = list({ limit: 500, ...(cursor === undefined ? {} : { cursor }) });
    if (!page.ok) throw new Error(`reading the final state: ${page.body.error}`);
    items.push(...page.body.items);
    cursor = page.body.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}
