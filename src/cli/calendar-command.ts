// `propsim calendar [TIME...] [--instrument ROOT] [--json]`: session facts for each time
// (docs/calendar.md#propsim-calendar).
import type { Argv } from 'yargs';
import {
  GlobexCalendar,
  chicagoIso,
  closedReason,
  type ClosedReason,
  type HolidayTable,
  type SessionFacts,
} from '../core/calendar/index.js';
import { parseSymbol } from '../core/instruments.js';
import { parseTimeMs, TimeInputError } from '../core/time.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { CliInputError, reportFailure } from './input-error.js';
import { readStdinLines } from './stdin.js';
import { formatTable } from '../reports/text-table.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { helpExamples } from './help-examples.js';

interface CalendarArgs {
  times: string[] | undefined;
  instrument: string;
  json: boolean;
  holidays: string | undefined;
}

export const calendarCommand = {
  ...COMMAND_SUMMARIES.calendar,
  builder: (y: Argv) =>
    y
      .positional('times', {
        describe: 'ISO 8601 times with an offset or Z, or Unix ms; read from stdin, one a line, when none are given',
        type: 'string',
        array: true,
      })
      .option('instrument', {
        describe: 'instrument root or symbol (ES, 6E, ESM6): picks the product group',
        type: 'string',
        default: 'ES',
        requiresArg: true,
      })
      .option('json', { describe: 'one JSON object a line on stdout', type: 'boolean', default: false })
      .option('holidays', {
        describe: 'holiday data file (YAML/JSON) to use instead of the bundled CME 2020–2027 file',
        type: 'string',
        requiresArg: true,
      })
      .epilog(
        helpExamples([
          [
            'the first instant of the session after the DST switch',
            '$0 calendar 2026-03-08T17:00:00-05:00 --instrument ES',
          ],
          ['times on stdin, JSON lines out', "printf '1704236400000\\n' | $0 calendar --instrument 6E --json"],
        ]),
      )
      .epilog(
        'When the market is closed at a time, is_open is false and trade_date and the session fields describe the next session to open; the note says why it is closed (daily halt, weekend, a holiday by name) and JSON lines carry the holiday\'s name as "holiday". Times in the table are shown in Chicago time. A trade date outside the years of the holiday data gets a warning on stderr.',
      ),
  handler: async (args: CalendarArgs) => {
    try {
      await runCalendar(args);
    } catch (error) {
      reportFailure('calendar', error);
    }
  },
};

async function runCalendar(args: CalendarArgs): Promise<void> {
  const family = parseSymbol(args.instrument).spec.family; // fails early on an unknown root
  const holidays = loadHolidayFile(args.holidays);
  const calendar = new GlobexCalendar(holidays);
  const inputs =
    args.times && args.times.length > 0
      ? labelled(args.times, 'argument')
      : labelled(await readStdinLines(), 'stdin line');
  // Validate every time before printing anything: bad input loses nothing and prints no partial answer.
  const timesMs = inputs.map(({ text, where }) => {
    try {
      return parseTimeMs(text, where);
    } catch (error) {
      if (error instanceof TimeInputError) throw new CliInputError(error.message);
      throw error;
    }
  });
  if (timesMs.length === 0) throw new CliInputError('no times given: pass them as arguments or on stdin, one a line');
  const facts = timesMs.map((timeMs) => calendar.sessionAt(timeMs, args.instrument));
  const reasons = facts.map((f, i) =>
    f.isOpen ? undefined : closedReason(calendar, holidays, timesMs[i]!, f, family),
  );
  const outside = outsideHolidayData(holidays, facts, inputs);
  if (outside) process.stderr.write(`propsim calendar: warning: ${outside}\n`);
  process.stdout.write(
    args.json ? jsonLines(timesMs, facts, reasons, args.instrument) : table(timesMs, facts, reasons, args.instrument),
  );
}

/** Trade dates past (or before) the years of the holiday data: the calendar cannot know holidays there. */
function outsideHolidayData(
  holidays: HolidayTable,
  facts: SessionFacts[],
  inputs: Array<{ where: string }>,
): string | undefined {
  const years = holidays.yearsCovered();
  if (!years) return undefined;
  const outside = facts.flatMap((f, i) => {
    const year = Number(f.tradeDate.slice(0, 4));
    return year < years.first || year > years.last ? [`${inputs[i]!.where} (trade date ${f.tradeDate})`] : [];
  });
  if (outside.length === 0) return undefined;
  const which = outside.length === 1 ? outside[0] : `${outside.length} times, the first ${outside[0]}`;
  return `the holiday data covers ${years.first}–${years.last}; ${which} ${outside.length === 1 ? 'is' : 'are'} outside it, where holidays are unknown and every weekday shows a normal session (pass --holidays FILE with those years)`;
}

function labelled(texts: readonly string[], kind: string): Array<{ text: string; where: string }> {
  return texts
    .map((text, i) => ({ text: text.trim(), where: `${kind} ${i + 1}` }))
    .filter(({ text }) => text !== '' && !text.startsWith('#'));
}

function jsonLines(
  timesMs: number[],
  facts: SessionFacts[],
  reasons: Array<ClosedReason | undefined>,
  instrument: string,
): string {
  return facts
    .map((f, i) => {
      const holiday = reasons[i]?.holiday;
      return JSON.stringify({
        time_ms: timesMs[i],
        instrument,
        trade_date: f.tradeDate,
        is_open: f.isOpen,
        session_open_ms: f.openMs,
        session_close_ms: f.closeMs,
        // Only when a holiday keeps the market closed at that time.
        ...(holiday === undefined ? {} : { holiday }),
      });
    })
    .map((line) => line + '\n')
    .join('');
}

function table(
  timesMs: number[],
  facts: SessionFacts[],
  reasons: Array<ClosedReason | undefined>,
  instrument: string,
): string {
  const rows = facts.map((f, i) => [
    chicagoIso(timesMs[i] ?? 0),
    instrument,
    f.isOpen ? 'open' : 'closed',
    f.tradeDate,
    chicagoIso(f.openMs),
    chicagoIso(f.closeMs),
    // Why it is closed now, then what a holiday changes in the session shown.
    [reasons[i]?.note, f.note].filter(Boolean).join('; '),
  ]);
  const header = ['time (CT)', 'instrument', 'market', 'trade date', 'session open (CT)', 'session close (CT)', 'note'];
  return formatTable(header, rows);
}
