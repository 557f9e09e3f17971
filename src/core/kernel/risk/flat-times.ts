// When a plan's flat rules act (docs/risk-rules.md#flat-by-a-time, docs/risk-rules.md#no-holding-over-the-weekend),
// on the roll family's calendar, the calendar every account rolls on. A session's flat time is flat_by on its trade
// date (exchange time), or one minute before the session's close when the session closes at or before flat_by (an
// early close); with hold_over_weekend false and no flat_by, the session before a weekly roll (a weekend, or a gap
// that crosses one) has its flat time one minute before its close. A trade date without a session has none.
import { chicagoTimeToMs, mondayOf } from '../../calendar/dates.js';
import type { GlobexCalendar, Session, SessionFacts } from '../../calendar/globex-calendar.js';
import type { ProductFamily } from '../../instruments.js';
import type { PlanTemplate } from '../../accounts/plans.js';

const MINUTE_MS = 60_000;
/** Sessions looked through for the next flat time: a weekend flat comes within a week of sessions. */
const MAX_SESSIONS = 20;

export type FlatRule = 'flat_by' | 'hold_over_weekend';

export interface FlatTime {
  readonly atMs: number;
  /** The rule that set it: flat_by (every session, the weekend's too) or hold_over_weekend (without flat_by). */
  readonly rule: FlatRule;
  /** The session it belongs to, and its close. */
  readonly tradeDate: string;
  readonly closeMs: number;
  /** flat_by's minutes, for messages (flat_by only). */
  readonly flatByMinutes?: number;
  /** flat_by moved to one minute before a close at or before it (an early close). */
  readonly early: boolean;
}

/** The flat rules of a plan, as the calendar needs them. */
interface FlatSpec {
  readonly flatByMinutes: number | undefined;
  readonly weekend: boolean;
}

function specOf(plan: PlanTemplate): FlatSpec {
  return { flatByMinutes: plan.riskProfile.flatByMinutes, weekend: plan.riskProfile.holdOverWeekend === false };
}

/** Whether the roll that follows this session is a weekly one: a weekend (or a gap that crosses one) comes next. */
export function beforeWeekend(calendar: GlobexCalendar, family: ProductFamily, session: Session): boolean {
  const next = calendar.sessionAtFamily(session.closeMs, family);
  return mondayOf(next.tradeDate) !== mondayOf(session.tradeDate);
}

/** The session's flat time under the spec, if it has one. */
function flatTimeOf(
  calendar: GlobexCalendar,
  family: ProductFamily,
  session: Session,
  spec: FlatSpec,
): FlatTime | undefined {
  const lastMinute = session.closeMs - MINUTE_MS;
  const { tradeDate, closeMs } = session;
  if (spec.flatByMinutes !== undefined) {
    const flatBy = chicagoTimeToMs(tradeDate, spec.flatByMinutes);
    const atMs = Math.max(session.openMs, Math.min(flatBy, lastMinute));
    return { atMs, rule: 'flat_by', tradeDate, closeMs, flatByMinutes: spec.flatByMinutes, early: atMs !== flatBy };
  }
  if (spec.weekend && beforeWeekend(calendar, family, session))
    return { atMs: Math.max(session.openMs, lastMinute), rule: 'hold_over_weekend', tradeDate, closeMs, early: false };
  return undefined;
}

/**
 * The calendar side of the flat rules, with the answers kept: every account on one plan asks the same questions at
 * the same instants (at a flat time, each asks for its next), and a wall-clock conversion costs microseconds.
 */
export class FlatTimes {
  private readonly next = new Map<string, FlatTime | null>();
  /** Each session's flat time by spec: a flat time asks it of every account due then. */
  private readonly ofSession = new Map<string, FlatTime | null>();
  private lastFacts: { timeMs: number; facts: Readonly<SessionFacts> } | undefined;

  constructor(
    private readonly calendar: GlobexCalendar,
    private readonly family: ProductFamily,
  ) {}

  /** The plan's first flat time strictly after `afterMs`, if it has flat rules. */
  nextAfter(plan: PlanTemplate, afterMs: number): FlatTime | undefined {
    const spec = specOf(plan);
    if (spec.flatByMinutes === undefined && !spec.weekend) return undefined;
    const key = `${afterMs}|${spec.flatByMinutes}|${spec.weekend}`;
    let found = this.next.get(key);
    if (found === undefined) {
      if (this.next.size > 256) this.next.clear();
      found = this.compute(spec, afterMs) ?? null;
      this.next.set(key, found);
    }
    return found ?? undefined;
  }

  /**
   * The flat time whose lock holds at `timeMs`: the session open at `timeMs` has passed its flat time. An account
   * opened then starts locked, as one opened before it would be.
   */
  lockedAt(plan: PlanTemplate, timeMs: number): FlatTime | undefined {
    const spec = specOf(plan);
    if (spec.flatByMinutes === undefined && !spec.weekend) return undefined;
    const facts = this.sessionAt(timeMs);
    if (!facts.isOpen) return undefined;
    const flat = this.sessionFlatTime(facts, spec);
    return flat !== undefined && flat.atMs <= timeMs ? flat : undefined;
  }

  /** The calendar's facts at an instant, the last asked kept: every account due at an instant asks the same. */
  private sessionAt(timeMs: number): Readonly<SessionFacts> {
    if (this.lastFacts?.timeMs !== timeMs)
      this.lastFacts = { timeMs, facts: this.calendar.sessionAtFamily(timeMs, this.family) };
    return this.lastFacts.facts;
  }

  private sessionFlatTime(session: Session, spec: FlatSpec): FlatTime | undefined {
    const key = `${session.tradeDate}|${spec.flatByMinutes}|${spec.weekend}`;
    let found = this.ofSession.get(key);
    if (found === undefined) {
      if (this.ofSession.size > 256) this.ofSession.clear();
      found = flatTimeOf(this.calendar, this.family, session, spec) ?? null;
      this.ofSession.set(key, found);
    }
    return found ?? undefined;
  }

  private compute(spec: FlatSpec, afterMs: number): FlatTime | undefined {
    let session: Session = this.calendar.sessionAtFamily(afterMs, this.family);
    for (let i = 0; i < MAX_SESSIONS; i++) {
      const flat = this.sessionFlatTime(session, spec);
      if (flat !== undefined && flat.atMs > afterMs) return flat;
      session = this.calendar.sessionAtFamily(session.closeMs, this.family);
    }
    return undefined;
  }
}
