// `active_hours: ["08:30", "11:00"]` of a synthetic trader (docs/backtesting.md#synthetic-traders): it asks for a
// signal only at checks between those Chicago wall-clock times (from inclusive, to exclusive; a window that wraps
// midnight, ["18:00", "02:00"], is the evening and the night). Off unless given.
import { addDays, chicagoTimeToMs } from '../../core/calendar/dates.js';

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The [from, to) minutes past midnight CT of an `active_hours` param, or undefined (off) when it is absent. */
export function activeHoursParam(params: Record<string, unknown>, key = 'active_hours'): [number, number] | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  const minutes = Array.isArray(value) && value.length === 2 ? value.map(clockMinutes) : [];
  if (minutes.length !== 2 || minutes.some((m) => m === undefined) || minutes[0] === minutes[1])
    throw new Error(
      `params.${key}: expected two different Chicago times ["HH:MM", "HH:MM"], such as ["08:30", "11:00"], got ${JSON.stringify(value)}`,
    );
  return [minutes[0]!, minutes[1]!];
}

function clockMinutes(text: unknown): number | undefined {
  const match = typeof text === 'string' ? CLOCK.exec(text) : null;
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** Whether instants fall in the window, with each trade date's instants worked out once (daylight saving included). */
export class ActiveHours {
  private tradeDate = '';
  private windows: Array<[number, number]> = [];

  constructor(private readonly range: readonly [number, number]) {}

  contains(nowMs: number, tradeDate: string): boolean {
    if (tradeDate !== this.tradeDate) {
      this.tradeDate = tradeDate;
      // A Globex session runs from the evening before its trade date to that afternoon: both dates' windows.
      this.windows = [addDays(tradeDate, -1), tradeDate].flatMap((date) => this.windowsOn(date));
    }
    return this.windows.some(([from, to]) => nowMs >= from && nowMs < to);
  }

  private windowsOn(date: string): Array<[number, number]> {
    const [from, to] = this.range;
    if (from < to) return [[chicagoTimeToMs(date, from), chicagoTimeToMs(date, to)]];
    const midnight = chicagoTimeToMs(addDays(date, 1), 0);
    return [
      [chicagoTimeToMs(date, 0), chicagoTimeToMs(date, to)],
      [chicagoTimeToMs(date, from), midnight],
    ];
  }
}
