// Everything a kernel would answer about its state, by section (docs/api.md#shapes): the clock, every account's
// risk state and record, orders with their status records, fills, trades, positions, balances, adjustments and
// each firm's offerings. Two kernels with equal sections answer every read alike; the first section that differs
// says where they part.
import type { Kernel } from '../core/kernel/kernel.js';
import type { SimCast } from './sim-clients.js';
import { everyPage } from './sim-ownership.js';

export type KernelDigest = Record<string, string>;

export function kernelDigest(kernel: Kernel, cast: SimCast): KernelDigest {
  const read = kernel.read;
  const all = {};
  const orders = everyPage((page) => read.orders(all, {}, page));
  const accounts = read.accountStates();
  return {
    clock: JSON.stringify(read.clock()),
    accounts: JSON.stringify(accounts),
    records: JSON.stringify(everyPage((page) => read.accounts(all, {}, page))),
    orders: JSON.stringify(orders),
    states: JSON.stringify(orders.map((o) => read.orderStates(all, o.order_id))),
    fills: JSON.stringify(everyPage((page) => read.fills(all, {}, page))),
    trades: JSON.stringify(everyPage((page) => read.trades(all, {}, page))),
    positions: JSON.stringify(everyPage((page) => read.positions(all, {}, page))),
    balances: JSON.stringify(everyPage((page) => read.balances(all, {}, page))),
    adjustments: JSON.stringify(accounts.map((a) => everyPage((page) => read.adjustments(all, a.account_id, page)))),
    offerings: JSON.stringify(cast.firms.map((f) => read.firm(f.slug) && read.offerings(read.firm(f.slug)!.firm_id))),
  };
}

/** Where two digests part: the first section that differs, and the first place in it; undefined when equal. */
export function digestDifference(expected: KernelDigest, actual: KernelDigest): string | undefined {
  for (const section of Object.keys(expected)) {
    const a = expected[section]!;
    const b = actual[section] ?? '';
    if (a === b) continue;
    let at = 0;
    while (at < a.length && a[at] === b[at]) at++;
    const from = Math.max(0, at - 80);
    return `${section} differ at character ${at}: expected …${a.slice(from, at + 120)}…, got …${b.slice(from, at + 120)}…`;
  }
  return undefined;
}
