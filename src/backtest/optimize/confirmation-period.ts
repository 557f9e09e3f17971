// `confirmation.period` of an optimize config (docs/optimizing.md#confirmation): the chosen plan is confirmed over
// another stretch of the market than the search ran on, so the confirmation's price path is one the search never
// saw. It must hold trade dates of its own: no date in common with the search's period, and (with fills traders)
// executions to replay. Whether the market files cover it is checked by the CLI, with the search's period.
import { fail, FieldError } from '../../core/validation/input-fields.js';
import type { BacktestConfig } from '../config/backtest-config.js';
import { checkFillsInPeriod } from '../fills/fills-in-period.js';
import { periodTradeDates } from '../config/period-trade-dates.js';
import { readFillsFile } from '../fills/trader-fills.js';

export type Period = { from: string; to: string };

/** The confirmation period, checked against the search's config; a FieldError names `confirmation.period…`. */
export function checkConfirmationPeriod(period: Period, search: BacktestConfig): Period {
  const { from, to } = period;
  if (to < from) fail('confirmation.period.to', `a date no earlier than confirmation.period.from (${from})`, to);
  const searched = search.period;
  if (from <= searched.to && searched.from <= to)
    fail(
      'confirmation.period',
      `a period that does not overlap the search's period (${searched.from} to ${searched.to}): the confirmation is meant for trade dates the search never saw`,
      `${from} to ${to}`,
    );
  const { sessions, calendar, family } = periodTradeDates(search, period, 'confirmation.period', `${from} to ${to}`);
  if (search.fills) {
    const tradeDate = (timeMs: number) => calendar.tradeDateOfFamily(timeMs, family);
    try {
      checkFillsInPeriod(readFillsFile(search.fills), { file: search.fills.path, period, sessions, tradeDate });
    } catch (error) {
      if (error instanceof FieldError) throw new FieldError('confirmation.period', error.detail);
      throw error;
    }
  }
  return { from, to };
}
