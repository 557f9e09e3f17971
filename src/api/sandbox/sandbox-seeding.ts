// A sandbox's kernel as the seed makes it (docs/api.md#start-up): a new kernel at the start time, then the seed's
// firms with their plans and staff, and their demo accounts.
import { Kernel } from '../../core/kernel/kernel.js';
import { planJson } from '../../core/kernel/read/risk-json.js';
import { CommandRefusal, type Outcome } from '../../core/outcome.js';
import type { GlobexCalendar } from '../../core/calendar/globex-calendar.js';
import type { SandboxSeed } from './seed-file.js';

/** A new kernel for the seed, at `startMs`, journaling only what the sandbox reads back. */
export function seedKernel(seed: SandboxSeed, startMs: number, calendar: GlobexCalendar): Kernel {
  return new Kernel({
    startMs,
    seed: seed.seed,
    calendar,
    fillModel: seed.fillModel,
    riskLoadDelayMs: seed.riskLoadDelayMs,
    // Only the lines daily position reads need: a line per order would grow the memory of a long session.
    journal: 'positions',
  });
}

/** Registers the seed's firms in `kernel` and provisions their demo accounts. */
export function seedFirms(kernel: Kernel, seed: SandboxSeed): void {
  for (const firm of seed.firms) {
    const registered = kernel.dispatch({
      type: 'register_firm',
      slug: firm.slug,
      name: firm.name,
      plans: Object.fromEntries([...firm.plans].map(([reference, plan]) => [reference, planJson(plan)])),
      staff: firm.staff.map((s) => ({ email: s.email, ...(s.firstName ? { first_name: s.firstName } : {}) })),
    });
    const firmId = settled(registered).firm_id;
    for (const account of firm.accounts) {
      const user = {
        email: account.email,
        ...(account.firstName ? { first_name: account.firstName } : {}),
        ...(account.lastName ? { last_name: account.lastName } : {}),
      };
      const body = { user, plan_reference: account.planReference, count: account.count };
      settled(kernel.dispatch({ type: 'provision_accounts', firm_id: firmId, body }));
    }
  }
}

/** A seed the loader accepted must also be accepted by the kernel; if not, that is a bug worth a stack. */
function settled<T>(outcome: Outcome<T>): T {
  if (!outcome.ok)
    throw new CommandRefusal(outcome.status, outcome.body.code, `the seed was refused: ${outcome.body.error}`);
  return outcome.body;
}
