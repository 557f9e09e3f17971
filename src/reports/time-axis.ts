// Chart times in Chicago wall-clock: instants are shifted by their CT offset and drawn on a UTC axis.
import { chicagoIso } from '../core/calendar/dates.js';

export function chicagoChartTime(timeMs: number): number {
  const iso = chicagoIso(timeMs);
  const sign = iso.slice(-6, -5) === '-' ? -1 : 1;
  return timeMs + sign * (Number(iso.slice(-5, -3)) * 60 + Number(iso.slice(-2))) * 60_000;
}
