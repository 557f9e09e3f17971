// Validation of the firm-control steps (lockout … max_loss_limit). The operation receives the step's fields
// as a request body. Without `expect_status` every value was checked against the step's schema (step-schemas.ts);
// with it only the keys were (and `account` a string), so `expect_status: 400` reaches the operation's own
// validation and an unknown alias reaches its 404. Here: the alias, and the values converted.
import { at, toCents, type Fields } from '../core/validation/input-fields.js';
import type { FirmControlArgs, FirmControlKind, FirmControlStep } from './scenario-types.js';
import { readAccount, type StepInput } from './step-context.js';

export { REASON_CODE_MAX_LENGTH } from './step-schemas.js';

export function parseFirmControl(kind: FirmControlKind, raw: unknown, s: StepInput): FirmControlStep {
  const p = s.path;
  const doc = raw as Fields;
  const accountValue = doc.account as string;
  const body = Object.freeze(Object.fromEntries(Object.entries(doc).filter(([key]) => key !== 'account')));
  const common = { index: s.index, kind, timeMs: s.ctx.nowMs, body };
  if (s.expectStatus !== undefined)
    return { ...common, account: accountValue, expectStatus: s.expectStatus } as FirmControlStep;
  const account = readAccount(accountValue, at(p, 'account'), s.ctx);
  return { ...common, account, args: parseArgs(kind, doc, p) } as FirmControlStep;
}

/** The checked values as the operation takes them: money in cents, defaults filled in. */
function parseArgs(kind: FirmControlKind, doc: Fields, p: string): FirmControlArgs[FirmControlKind] {
  const reason = doc.reason_code as string | undefined;
  const optionalReason = reason === undefined ? {} : { reasonCode: reason };
  switch (kind) {
    case 'lockout':
      return {
        ...optionalReason,
        flatten: (doc.flatten as boolean | undefined) ?? false,
      } satisfies FirmControlArgs['lockout'];
    case 'unlock':
    case 'flatten':
      return {};
    case 'adjust':
      return {
        amountCents: toCents(doc.amount as string, at(p, 'amount')),
        ...optionalReason,
        shiftFloors: (doc.shift_floors as boolean | undefined) ?? true,
      } satisfies FirmControlArgs['adjust'];
    case 'daily_loss_trigger':
      return {
        dailyLossLimitTriggerCents: toCents(doc.daily_loss_limit_trigger as string, at(p, 'daily_loss_limit_trigger')),
        reasonCode: reason!,
      } satisfies FirmControlArgs['daily_loss_trigger'];
    case 'reanchor':
      return { reasonCode: reason! } satisfies FirmControlArgs['reanchor'];
    case 'max_loss_limit': {
      const value = doc.max_drawdown_limit as string | null;
      return {
        maxDrawdownLimitCents: value === null ? null : toCents(value, at(p, 'max_drawdown_limit')),
      } satisfies FirmControlArgs['max_loss_limit'];
    }
  }
}
