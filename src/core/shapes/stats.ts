// An account's trading statistics (docs/api.md#shapes; each figure is defined in docs/order-lifecycle.md#statistics).
import { Type, type Static } from 'typebox';
import { Id, Money } from './common.js';

export const StatsShape = Type.Object(
  {
    account_id: Id,
    trades: Type.Integer({ minimum: 0, description: 'closed trades' }),
    wins: Type.Integer({ minimum: 0 }),
    losses: Type.Integer({ minimum: 0 }),
    win_rate: Type.String({ description: 'wins / trades as a decimal string with 4 places; "0.0000" with no trades' }),
    net_pnl: Money,
    commissions: Money,
    best_day: Money,
    worst_day: Money,
    trading_days: Type.Integer({ minimum: 0 }),
    max_drawdown: Money,
  },
  { additionalProperties: false },
);
export type StatsJson = Static<typeof StatsShape>;
