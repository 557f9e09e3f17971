// `propsim calendar [TIME...] [--instrument ROOT] [--json]`: session facts for each time (CONTRACTS.md).
import type { Argv } from 'yargs';
import { GlobexCalendar, chicagoIso, type SessionFacts } from '../core/calendar/index.js';
import { parseSymbol } from '../core/instruments.js';
import { parseTimeMs, TimeInputError } from '../core/time.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { CliInputError, reportFailure } from './input-error.js';
import { readStdinLines } from './stdin.js';
import { formatTable } from '../reports/text-table.js';

interface CalendarArgs {
  times: string[] | undefined;
  instrument: string;
  json: boolean;
  holidays: string | undefined;
}

export const calendarCommand = {
  command: 'calendar [times..]',
  describe: 'Session facts (open?, trade date, session open/close) for each time',
  builder: (y: Argv) =>
    y
      .positional('times', {
        describe: 'ISO 8601 times with an offset or Z, or Unix ms; read from stdin, one a line, when none are given',
        type: 'string',
        array: true,
      })
      .option('instrument', { describe: 'instrument root or symbol (ES, 6E, ESM6): picks the product group', type: 'string', default: 'ES', requiresArg: true })
      .option('json', { describe: 'one JSON object a line on stdout', type: 'boolean', default: false })
      .option('holidays', { describe: 'holiday data file (YAML/JSON) to use instead of the bundled CME 2020–2027 file', type: 'string', requiresArg: true })
      .example('$0 calendar 2026-03-08T17:00:00-05:00 --instrument ES', 'the first instant of the session after the DST switch')
      .example("printf '1704236400000\\n' | $0 calendar --instrument 6E --json", 'times on stdin, JSON lines out')
      .epilog(
        'When the market is closed at a time, is_open is false and trade_date and the session fields describe the next session to open. Times in the table are shown in Chicago time.',
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
  parseSymbol(args.instrument); // fail early on an unknown root
  const calendar = new GlobexCalendar(loadHolidayFile(args.holidays));
  const inputs = args.times && args.times.length > 0 ? labelled(args.times, 'argument') : labelled(await readStdinLines(), 'stdin line');
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
  process.stdout.write(args.json ? jsonLines(timesMs, facts, args.instrument) : table(timesMs, facts, args.instrument));
}

function labelled(texts: readonly string[], kind: string): Array<{ text: string; where: string }> {
  return texts
    .map((text, i) => ({ text: text.trim(), where: `${kind} ${i + 1}` }))
    .filter(({ text }) => text !== '' && !text.startsWith('#'));
}

function jsonLines(timesMs: number[], facts: SessionFacts[], instrument: string): string {
  return facts
    .map((f, i) =>
      JSON.stringify({
        time_ms: timesMs[i],
        instrument,
        trade_date: f.tradeDate,
        is_open: f.isOpen,
        session_open_ms: f.openMs,
        session_close_ms: f.closeMs,
      }),
    )
    .map((line) => line + '\n')
    .join('');
}

function table(timesMs: number[], facts: SessionFacts[], instrument: string): string {
  const rows = facts.map((f, i) => [
    chicagoIso(timesMs[i] ?? 0),
    instrument,
    f.isOpen ? 'open' : 'closed',
    f.tradeDate,
    chicagoIso(f.openMs),
    chicagoIso(f.closeMs),
    f.note ?? '',
  ]);
  const header = ['time (CT)', 'instrument', 'market', 'trade date', 'session open (CT)', 'session close (CT)', 'note'];
  return formatTable(header, rows);
}
