// GLOBEX sessions (docs/calendar.md#sessions-and-trade-dates). The session of trade date D opens at 17:00 CT on the
// day before D and closes at 16:00 CT on D; Saturdays and Sundays are never trade dates, so Monday's session opens
// Sunday 17:00. A holiday closes trade date D (no session at all) or ends it early (halt), optionally moving the next
// session's open (resume). A session belongs to the trade date on which it closes.
import { parseSymbol, type ProductFamily } from '../instruments.js';
import { addDays, chicagoDateOf, chicagoTimeToMs, isWeekend } from './dates.js';
import type { HolidayTable } from './holidays.js';

const OPEN_MINUTES = 17 * 60;
const CLOSE_MINUTES = 16 * 60;
// The longest run of days without a session is a long weekend plus adjacent closures; two weeks is ample.
const MAX_DAYS_WITHOUT_SESSION = 14;

export interface Session {
  tradeDate: string;
  openMs: number;
  /** First instant after the session: trading is allowed in [openMs, closeMs). */
  closeMs: number;
  /** Set when a holiday moved this session's open or close, e.g. "halt 12:00 CT: Thanksgiving Day". */
  note?: string;
}

export interface SessionFacts extends Session {
  /** When false, the session fields describe the next session to open. */
  isOpen: boolean;
}

export class GlobexCalendar {
  private readonly cache = new Map<string, Session | null>();
  /** The session most recently found open per group, as facts: most lookups fall inside it (fills, prints, arrivals),
   * and get this one object, not a copy. */
  private readonly lastOpen = new Map<ProductFamily, Readonly<SessionFacts>>();

  constructor(private readonly holidays: HolidayTable) {}

  /** The session of `tradeDate` for a product group, or undefined when that date has none. */
  sessionOf(tradeDate: string, family: ProductFamily): Session | undefined {
    const key = `${family}|${tradeDate}`;
    let session = this.cache.get(key);
    if (session === undefined) {
      session = this.computeSession(tradeDate, family);
      this.cache.set(key, session);
    }
    return session ?? undefined;
  }

  /** Session facts at an instant for an instrument root or symbol (ES, ESM6). */
  sessionAt(timeMs: number, rootOrSymbol: string): Readonly<SessionFacts> {
    return this.sessionAtFamily(timeMs, familyOf(rootOrSymbol));
  }

  sessionAtFamily(timeMs: number, family: ProductFamily): Readonly<SessionFacts> {
    const recent = this.lastOpen.get(family);
    if (recent && timeMs >= recent.openMs && timeMs < recent.closeMs) return recent;
    let date = chicagoDateOf(timeMs);
    for (let i = 0; i <= MAX_DAYS_WITHOUT_SESSION; i++, date = addDays(date, 1)) {
      const session = this.sessionOf(date, family);
      if (session && timeMs < session.closeMs) {
        const facts = { ...session, isOpen: timeMs >= session.openMs };
        if (facts.isOpen) this.lastOpen.set(family, facts);
        return facts;
      }
    }
    throw new Error(`no ${family} session within ${MAX_DAYS_WITHOUT_SESSION} days of ${chicagoDateOf(timeMs)}`);
  }

  /** The trade date an instant belongs to; when the market is closed, the next session's trade date. */
  tradeDateOf(timeMs: number, rootOrSymbol: string): string {
    return this.tradeDateOfFamily(timeMs, familyOf(rootOrSymbol));
  }

  /** tradeDateOf for a product group, without allocating in the common case (fills stamp every execution). */
  tradeDateOfFamily(timeMs: number, family: ProductFamily): string {
    const recent = this.lastOpen.get(family);
    if (recent && timeMs >= recent.openMs && timeMs < recent.closeMs) return recent.tradeDate;
    return this.sessionAtFamily(timeMs, family).tradeDate;
  }

  /** The next session roll strictly after `timeMs`: the first instant of the next session to open. */
  nextSessionRoll(timeMs: number, rootOrSymbol: string): number {
    return this.nextSessionRollFamily(timeMs, familyOf(rootOrSymbol));
  }

  nextSessionRollFamily(timeMs: number, family: ProductFamily): number {
    const facts = this.sessionAtFamily(timeMs, family);
    return facts.isOpen ? this.sessionAtFamily(facts.closeMs, family).openMs : facts.openMs;
  }

  private computeSession(tradeDate: string, family: ProductFamily): Session | null {
    if (isWeekend(tradeDate)) return null;
    const rule = this.holidays.ruleFor(tradeDate, family);
    if (rule?.kind === 'closed') return null;
    const dayBefore = addDays(tradeDate, -1);
    const before = this.holidays.ruleFor(dayBefore, family);
    const openMinutes =
      before?.kind === 'halt' && before.resumeMinutes !== undefined ? before.resumeMinutes : OPEN_MINUTES;
    const closeMinutes = rule?.kind === 'halt' ? rule.haltMinutes : CLOSE_MINUTES;
    const session: Session = {
      tradeDate,
      openMs: chicagoTimeToMs(dayBefore, openMinutes),
      closeMs: chicagoTimeToMs(tradeDate, closeMinutes),
    };
    const notes = [
      openMinutes !== OPEN_MINUTES ? `opens ${clock(openMinutes)} CT: ${this.holidays.nameOf(dayBefore)}` : '',
      closeMinutes !== CLOSE_MINUTES ? `halt ${clock(closeMinutes)} CT: ${this.holidays.nameOf(tradeDate)}` : '',
    ].filter(Boolean);
    if (notes.length > 0) session.note = notes.join('; ');
    return session;
  }
}

function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function familyOf(rootOrSymbol: string): ProductFamily {
  return parseSymbol(rootOrSymbol).spec.family;
}
