// GET /v1/firm-control/account-histories (docs/api.md#the-dashboard): a page of the firm's accounts, each with who
// trades it on which plan and its story so far (account-histories.ts), and the stream sequence the page stands at,
// to follow the firm stream from (`since_sequence`).
import { Type, type Static } from 'typebox';
import type { Kernel } from '../../core/kernel/kernel.js';
import { formatCents } from '../../core/money.js';
import { AccountStatusShape, LockReasonShape } from '../../core/shapes/account.js';
import { Id, Money, TimeMs } from '../../core/shapes/common.js';
import type { AccountHistories, HistoryPoint } from './account-histories.js';

const PointShape = Type.Object(
  {
    at: TimeMs,
    equity: Money,
    max_loss_limit_trigger: Money,
    daily_loss_limit_trigger: Type.Optional(Money),
  },
  { additionalProperties: false },
);

export const AccountHistoryShape = Type.Object(
  {
    account_id: Id,
    user_id: Id,
    trader_email: Type.String(),
    trader_first_name: Type.Optional(Type.String()),
    plan_reference: Type.String(),
    account_status: AccountStatusShape,
    is_locked: Type.Boolean(),
    lockout_reason: Type.Optional(LockReasonShape),
    points: Type.Array(PointShape, {
      description: 'equity and floors at each event that moved them, the last one now',
    }),
    fill_count: Type.Integer(),
    fills: Type.Array(TimeMs, { description: 'the times of the latest fills (at most 500)' }),
    locks: Type.Array(
      Type.Object(
        { at: TimeMs, lock: Type.String(), change: Type.Union([Type.Literal('added'), Type.Literal('removed')]) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AccountHistoryJson = Static<typeof AccountHistoryShape>;

export const AccountHistoriesShape = Type.Object(
  {
    sequence: Type.Integer({
      description: 'the last stream event the histories include: subscribe with it as since_sequence',
    }),
    now_ms: TimeMs,
    items: Type.Array(AccountHistoryShape),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

function pointJson([at, equity, maxLoss, dailyLoss]: HistoryPoint) {
  return {
    at,
    equity: formatCents(equity),
    max_loss_limit_trigger: formatCents(maxLoss),
    ...(dailyLoss === null ? {} : { daily_loss_limit_trigger: formatCents(dailyLoss) }),
  };
}

/** One account's history, ending with its figures now. */
export function accountHistoryJson(
  kernel: Kernel,
  histories: AccountHistories,
  record: { account_id: string; user_id: string; plan_reference: string },
): AccountHistoryJson {
  const read = kernel.read;
  const state = read.accountState(record.account_id)!;
  const numbers = read.riskNumbers(record.account_id)!;
  const trader = read.traderName(record.user_id);
  const history = histories.of(record.account_id);
  const now: HistoryPoint = [
    read.clock().now_ms,
    numbers.equityCents,
    numbers.maxLossTriggerCents,
    numbers.dailyLossTriggerCents,
  ];
  const kept = history?.points ?? [];
  const points = kept.at(-1)?.[0] === now[0] ? [...kept.slice(0, -1), now] : [...kept, now];
  return {
    account_id: record.account_id,
    user_id: record.user_id,
    trader_email: trader?.email ?? '',
    ...(trader?.first_name === undefined ? {} : { trader_first_name: trader.first_name }),
    plan_reference: record.plan_reference,
    account_status: state.account_status,
    is_locked: state.is_locked,
    ...(state.lockout_reason === undefined ? {} : { lockout_reason: state.lockout_reason }),
    points: points.map(pointJson),
    fill_count: history?.fillCount ?? 0,
    fills: history?.fills ?? [],
    locks: (history?.locks ?? []).map(([at, lock, added]) => ({ at, lock, change: added ? 'added' : 'removed' })),
  };
}
