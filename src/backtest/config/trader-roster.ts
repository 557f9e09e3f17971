// Who trades in a back-test, in a fixed order (synthetic traders by block, then the fills file's traders by
// first appearance), and the period's sessions. Each trader's seed comes from the config seed and its place,
// so it draws the same numbers in every cell.
import type { GlobexCalendar, Session } from '../../core/calendar/globex-calendar.js';
import { addDays } from '../../core/calendar/dates.js';
import type { ProductFamily } from '../../core/instruments.js';
import type { BacktestConfig } from './backtest-config-types.js';
import type { TraderFill } from '../../import/trader-fill.js';
import type { InstrumentWeight, SyntheticStrategy } from '../traders/strategy.js';

export interface TraderSpec {
  id: string;
  strategy: SyntheticStrategy | 'fills';
  seed: number;
  params: Record<string, unknown>;
  /** The roots it trades by weight, when its block names them. */
  instruments?: InstrumentWeight[];
}

export function tradersOf(config: BacktestConfig, fills: readonly TraderFill[]): TraderSpec[] {
  const roster: TraderSpec[] = [];
  config.synthetic.forEach((block, b) => {
    for (let i = 0; i < block.count; i++) {
      roster.push({
        id: `${block.strategy}-${b + 1}-${String(i + 1).padStart(4, '0')}`,
        strategy: block.strategy,
        seed: config.seed * 1_000_003 + roster.length,
        params: block.params,
        ...(block.instruments === undefined ? {} : { instruments: block.instruments }),
      });
    }
  });
  const seen = new Set<string>();
  for (const fill of fills) {
    if (seen.has(fill.trader)) continue;
    seen.add(fill.trader);
    roster.push({ id: fill.trader, strategy: 'fills', seed: 0, params: {} });
  }
  return roster;
}

/** The sessions whose trade dates lie in the period, in order (holidays and weekends have none). */
export function periodSessions(
  calendar: GlobexCalendar,
  period: { from: string; to: string },
  family: ProductFamily,
): Session[] {
  const sessions: Session[] = [];
  for (let date = period.from; date <= period.to; date = addDays(date, 1)) {
    const session = calendar.sessionOf(date, family);
    if (session) sessions.push(session);
  }
  return sessions;
}
