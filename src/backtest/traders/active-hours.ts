// `active_hours: ["08:30", "11:00"]` of a synthetic trader (docs/backtesting.md#synthetic-traders): it asks for a
// signal only at checks between those Chicago wall-clock times (from inclusive, to exclusive; a window that wraps
// midnight, ["18:00", "02:00"], is the evening and the night). Off unless given.
import { FieldError } from '../../core/validation/input-fields.js';
import { addDays, chicagoTimeToMs } from '../../core/calendar/dates.js';

/**
 * The [from, to) minutes past midnight CT of checked `active_hours` times ("HH:MM", the schema's pattern), or undefined
 * (off) when absent. Two equal times would be an empty window: refused.
 */
export function activeHoursOf(times: readonly [string, string] | undefined): [number, number] | undefined {
  if (times === undefined) return undefined;
  const [from, to] = times.map((time) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))) as [number, number];
  if (from === to)
    throw new FieldError(
      'params.active_hours',
      `expected two different Chicago times ["HH:MM", "HH:MM"], such as ["08:30", "11:00"], got ${JSON.stringify(times)}`,
    );
  return [from, to];
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
