// Chart times in Chicago wall-clock: instants are shifted by their CT offset and drawn on a UTC axis.
import { chicagoIso } from '../core/calendar/dates.js';

const HOUR_MS = 3_600_000;

/**
 * The shift of the UTC hour last asked about: Chicago's offset changes on whole UTC hours (2:00 wall time), and a
 * chart asks for thousands of instants in time order, each of which would otherwise read the offset through Intl.
 */
let cachedHour = Number.NaN;
/** The shift of every instant of cachedHour, or null when the offset changes within it (then each is computed). */
let cachedShiftMs: number | null = null;

export function chicagoChartTime(timeMs: number): number {
  const hour = Math.floor(timeMs / HOUR_MS);
  if (hour !== cachedHour) {
    const atStart = shiftMs(hour * HOUR_MS);
    cachedShiftMs = atStart === shiftMs((hour + 1) * HOUR_MS - 1) ? atStart : null;
    cachedHour = hour;
  }
  return timeMs + (cachedShiftMs ?? shiftMs(timeMs));
}

/** Chicago's offset from UTC at an instant, in ms. */
function shiftMs(timeMs: number): number {
  const iso = chicagoIso(timeMs);
  const sign = iso.slice(-6, -5) === '-' ? -1 : 1;
  return sign * (Number(iso.slice(-5, -3)) * 60 + Number(iso.slice(-2))) * 60_000;
}

/**
 * The label options of a time axis of Chicago chart times: the date where a day starts, the hour and minute
 * between, and no label drawn over another (a date and a time on every label overlapped on an hour-long run).
 * Templates, not functions: the option may be drawn on another thread.
 */
export const CHICAGO_TIME_AXIS_LABEL = {
  hideOverlap: true,
  formatter: {
    year: '{yyyy}-{MM}-{dd}',
    month: '{MM}-{dd}',
    day: '{MM}-{dd}',
    hour: '{HH}:{mm}',
    minute: '{HH}:{mm}',
    second: '{HH}:{mm}:{ss}',
    millisecond: '{HH}:{mm}:{ss}',
  },
} as const;
