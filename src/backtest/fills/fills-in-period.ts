// A fills file none of whose executions falls in the back-test's period would run every cell with its traders idle
// (each "active" with 0 trading days): invalid input, refused when the config is read
// (docs/backtesting.md#historical-fills). Inside means in [the first session's open, the last session's close), the
// window the cell runner books fills in; some executions outside it are fine, and ignored.
import { FieldError } from '../../core/validation/input-fields.js';
import type { Session } from '../../core/calendar/globex-calendar.js';
import type { TraderFill } from '../../import/trader-fill.js';

export interface FillsWindow {
  /** The fills file as the config names it. */
  file: string;
  period: { from: string; to: string };
  /** The period's sessions, in order (at least one). */
  sessions: readonly Session[];
  tradeDate: (timeMs: number) => string;
}

/** Throws a FieldError on traders.fills.path when no fill (of at least one) lies in the period's sessions. */
export function checkFillsInPeriod(fills: readonly TraderFill[], window: FillsWindow): void {
  const startMs = window.sessions[0]!.openMs;
  const endMs = window.sessions[window.sessions.length - 1]!.closeMs;
  if (fills.some((f) => f.timeMs >= startMs && f.timeMs < endMs)) return;
  // Not Math.min(...): a broker export can hold more fills than a call takes arguments.
  const firstMs = fills.reduce((ms, f) => Math.min(ms, f.timeMs), Infinity);
  const lastMs = fills.reduce((ms, f) => Math.max(ms, f.timeMs), -Infinity);
  const { from, to } = window.period;
  throw new FieldError(
    'traders.fills.path',
    `every execution of ${window.file} lies outside the period ${from} to ${to}: its fills span trade dates ` +
      `${window.tradeDate(firstMs)} to ${window.tradeDate(lastMs)}; move the period or use another fills file`,
  );
}
