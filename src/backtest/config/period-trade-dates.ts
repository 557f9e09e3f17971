// A config's period must hold trade dates of the market it trades (weekends and exchange holidays have none): a
// back-test's `period`, an optimize config's `confirmation.period`. Checked when the config is read.
import { fail } from '../../core/validation/input-fields.js';
import { GlobexCalendar, type Session } from '../../core/calendar/globex-calendar.js';
import type { ProductFamily } from '../../core/instruments.js';
import { loadHolidayFile } from '../../market/holiday-file.js';
import type { MarketFileSpec } from '../../market/market-file-spec.js';
import { sessionFamily } from './block-instruments.js';
import type { SyntheticTraders } from '../traders/strategy.js';
import { periodSessions } from './trader-roster.js';

/** The period's sessions, with the calendar and family they were read with; a FieldError on `path` when none. */
export function periodTradeDates(
  config: { market: readonly MarketFileSpec[]; synthetic: readonly SyntheticTraders[] },
  period: { from: string; to: string },
  path: string,
  received: unknown,
): { sessions: Session[]; calendar: GlobexCalendar; family: ProductFamily } {
  const family = sessionFamily(config);
  const calendar = new GlobexCalendar(loadHolidayFile());
  const sessions = periodSessions(calendar, period, family);
  if (sessions.length === 0)
    fail(
      path,
      `a period holding at least one ${config.market[0]!.instrument ?? family} trade date (weekends and exchange holidays have none)`,
      received,
    );
  return { sessions, calendar, family };
}
