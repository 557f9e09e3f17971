// The simulated clock as reads show it (docs/api.md#sandbox-control).
import { Type, type Static } from 'typebox';
import { TimeMs, TradeDate } from './common.js';

export const ClockShape = Type.Object(
  {
    now_ms: TimeMs,
    now: Type.String({ description: 'ISO 8601 in Chicago time, with its offset' }),
    trade_date: TradeDate,
    is_open: Type.Boolean({
      description: 'whether the equity-index market (the session the accounts roll with) is open',
    }),
  },
  { additionalProperties: false },
);
export type ClockJson = Static<typeof ClockShape>;
