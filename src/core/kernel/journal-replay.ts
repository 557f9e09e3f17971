// Rebuilds a kernel from its journal: the `input.*` lines, applied in order to a fresh kernel made from the
// `input.kernel_started` line, give back the same state and the same journal, byte for byte (the sandbox's
// restart, and the crash-and-replay test).
import { parsePlanTemplate, type PlanTemplate } from '../accounts/plans.js';
import type { GlobexCalendar } from '../calendar/globex-calendar.js';
import type { ProductFamily } from '../instruments.js';
import type { FillModel } from '../orders/fill-model.js';
import type { Side } from '../orders/order-types.js';
import { parseCents } from '../money.js';
import type { JournalEntry } from './journal.js';
import { Kernel, type AccountOperation } from './kernel.js';

type Data = Record<string, unknown>;

const ACCOUNT_OPERATIONS: ReadonlySet<string> = new Set<AccountOperation>([
  'setDailyLossTrigger',
  'reanchor',
  'lockout',
  'unlock',
  'flatten',
  'cancelAll',
  'setMaxLossLimit',
  'adjust',
  'setUserRiskHalt',
]);

export function parseJournal(text: string): JournalEntry[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JournalEntry);
}

/** A kernel that has re-applied every input of `entries` (which must start with input.kernel_started). */
export function replayJournal(
  entries: readonly JournalEntry[],
  calendar: GlobexCalendar,
  options: { journal?: boolean } = {},
): Kernel {
  const [first, ...rest] = entries;
  if (first?.type !== 'input.kernel_started') throw new Error('a journal starts with an input.kernel_started line');
  const started = first.data as Data;
  const kernel = new Kernel({
    startMs: started.start_ms as number,
    seed: started.seed as number,
    calendar,
    fillModel: started.fill_model as FillModel,
    riskLoadDelayMs: started.risk_load_delay_ms as number,
    rollFamily: started.roll_family as ProductFamily,
    journal: options.journal ?? true,
  });
  for (const entry of rest) if (entry.type.startsWith('input.')) applyInput(kernel, entry);
  return kernel;
}

/** Applies one journaled input at its time. */
export function applyInput(kernel: Kernel, entry: JournalEntry): void {
  const name = entry.type.slice('input.'.length);
  const d = entry.data as Data;
  if (name === 'print')
    return kernel.print(
      d.instrument as string,
      d.price_ticks as number,
      (d.size as number | null) ?? Infinity,
      entry.time_ms,
    );
  kernel.advanceTo(entry.time_ms);
  if (ACCOUNT_OPERATIONS.has(name)) {
    kernel.control(name as AccountOperation, d.account_id as string, d.body ?? undefined);
    return;
  }
  switch (name) {
    case 'advance':
      return kernel.advance(d.to as number);
    case 'tick':
      return kernel.printInput(d.instrument as string, d.price as string, (d.size as number | null) ?? undefined);
    case 'open_account':
      kernel.openAccount({
        plan: parsePlanTemplate(d.plan, 'journal plan'),
        pricePaidCents: parseCents(d.price_paid, 'price_paid'),
        ...(d.alias === null ? {} : { alias: d.alias as string }),
        ...(d.firm_id === null ? {} : { firmId: d.firm_id as string }),
        ...(d.user_id === null ? {} : { userId: d.user_id as string }),
      });
      return;
    case 'register_firm': {
      const plans = new Map<string, PlanTemplate>(
        Object.entries(d.plans as Data).map(([ref, plan]) => [ref, parsePlanTemplate(plan, `journal plan ${ref}`)]),
      );
      return kernel.registerFirm(d.firm_id as string, d.slug as string, plans);
    }
    case 'provision_accounts':
      kernel.provisionAccounts(d.firm_id as string, d.body);
      return;
    case 'place_order':
      kernel.placeOrder(d);
      return;
    case 'modify_order':
      kernel.modifyOrder(d.order_id as string, d.body);
      return;
    case 'cancel_order':
      kernel.cancelOrder(d.order_id as string);
      return;
    case 'link_oco':
      kernel.linkOco(d.order_ids as string[]);
      return;
    case 'add_oco_companion':
      kernel.addOcoCompanion(d.group_id as string, d.order_id as string);
      return;
    case 'record_fill':
      kernel.recordFill({
        accountId: d.account_id as string,
        symbol: d.instrument_id as string,
        side: d.side as Side,
        quantity: d.quantity as number,
        price: d.price as string,
        ...(d.occurred_at === null ? {} : { occurredAtMs: d.occurred_at as number }),
      });
      return;
    case 'set_offering':
      kernel.setOffering(d.firm_id as string, d.body);
      return;
    case 'replace_account':
      kernel.replaceAccount(d.account_id as string);
      return;
    default:
      throw new Error(`journal input ${entry.type} (seq ${entry.seq}) is not one this kernel knows`);
  }
}
