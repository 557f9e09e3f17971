// Validation of the firm-control steps (lockout … max_loss_limit). The operation receives the step's fields
// as a request body. Without `expect_status` every value is validated up front; with it only the shape is
// (a mapping of the operation's keys, `account` a string), so `expect_status: 400` reaches the operation's
// own validation and an unknown alias reaches its 404.
import { at, readBoolean, readCents, readString, type Fields } from '../core/accounts/input-fields.js';
import { readName } from './scenario-fields.js';
import type { FirmControlArgs, FirmControlKind, FirmControlStep } from './scenario-types.js';
import { need, readAccount, stepBody, type StepInput } from './step-context.js';

/** Longest reason_code, for every operation that takes one (docs/risk-rules.md#firm-controls-and-the-order-gate). */
export const REASON_CODE_MAX_LENGTH = 24;

const BODY_KEYS: Record<FirmControlKind, readonly string[]> = {
  lockout: ['account', 'reason_code', 'flatten'],
  unlock: ['account'],
  flatten: ['account'],
  adjust: ['account', 'amount', 'reason_code', 'shift_floors'],
  daily_loss_trigger: ['account', 'daily_loss_limit_trigger', 'reason_code'],
  reanchor: ['account', 'reason_code'],
  max_loss_limit: ['account', 'max_drawdown_limit'],
};

export function parseFirmControl(kind: FirmControlKind, raw: unknown, s: StepInput): FirmControlStep {
  const p = s.path;
  const doc = stepBody(raw, p, BODY_KEYS[kind]);
  const accountValue = need(doc, 'account', p, 'an account alias');
  const body = Object.freeze(Object.fromEntries(Object.entries(doc).filter(([key]) => key !== 'account')));
  const common = { index: s.index, kind, timeMs: s.ctx.nowMs, body };
  if (s.expectStatus !== undefined) {
    const account = readName(accountValue, at(p, 'account'), 'an account alias');
    return { ...common, account, expectStatus: s.expectStatus } as FirmControlStep;
  }
  const account = readAccount(accountValue, at(p, 'account'), s.ctx);
  return { ...common, account, args: parseArgs(kind, doc, p) } as FirmControlStep;
}

function parseArgs(kind: FirmControlKind, doc: Fields, p: string): FirmControlArgs[FirmControlKind] {
  switch (kind) {
    case 'lockout':
      return {
        ...optionalReason(doc, p),
        flatten: doc.flatten === undefined ? false : readBoolean(doc.flatten, at(p, 'flatten')),
      } satisfies FirmControlArgs['lockout'];
    case 'unlock':
    case 'flatten':
      return {};
    case 'adjust':
      return {
        amountCents: readCents(need(doc, 'amount', p, 'a decimal string'), at(p, 'amount'), 'non_zero'),
        ...optionalReason(doc, p),
        shiftFloors: doc.shift_floors === undefined ? true : readBoolean(doc.shift_floors, at(p, 'shift_floors')),
      } satisfies FirmControlArgs['adjust'];
    case 'daily_loss_trigger':
      return {
        dailyLossLimitTriggerCents: readCents(
          need(doc, 'daily_loss_limit_trigger', p, 'a decimal string'),
          at(p, 'daily_loss_limit_trigger'),
        ),
        reasonCode: readReason(need(doc, 'reason_code', p, 'a reason code'), at(p, 'reason_code')),
      } satisfies FirmControlArgs['daily_loss_trigger'];
    case 'reanchor':
      return {
        reasonCode: readReason(need(doc, 'reason_code', p, 'a reason code'), at(p, 'reason_code')),
      } satisfies FirmControlArgs['reanchor'];
    case 'max_loss_limit': {
      const value = need(doc, 'max_drawdown_limit', p, 'a decimal string, or null to remove the cap');
      return {
        maxDrawdownLimitCents: value === null ? null : readCents(value, at(p, 'max_drawdown_limit'), 'non_negative'),
      } satisfies FirmControlArgs['max_loss_limit'];
    }
  }
}

function readReason(value: unknown, path: string): string {
  return readString(value, path, { maxLength: REASON_CODE_MAX_LENGTH });
}

function optionalReason(doc: Fields, p: string): { reasonCode?: string } {
  return doc.reason_code === undefined ? {} : { reasonCode: readReason(doc.reason_code, at(p, 'reason_code')) };
}
