// The calendar part of the demo: the GLOBEX calendar replayed over the real CME 6E bars bundled in
// fixtures/market; every bar is put in its session and trade date, and a line per trade date shows what the
// calendar decided. Returns false when a print falls in a closed period.
import { join } from 'node:path';
import { GlobexCalendar, chicagoIso, type Session } from '../core/calendar/index.js';
import { loadHolidayFile, packageRoot } from '../market/holiday-file.js';
import { marketPrintBatches } from '../market/sources.js';
import { formatTable } from '../reports/text-table.js';

const FILE = join(packageRoot(), 'fixtures', 'market', '6EH4-2024-01.csv.gz');

interface TradeDateTally {
  session: Session;
  prints: number;
  firstMs: number;
  lastMs: number;
}

export async function calendarDemo(): Promise<boolean> {
  const calendar = new GlobexCalendar(loadHolidayFile());
  const byTradeDate = new Map<string, TradeDateTally>();
  const closedPrints: string[] = [];
  let prints = 0;
  for await (const batch of marketPrintBatches([{ path: FILE, format: 'bars', instrument: '6EH4' }])) {
    for (let i = 0; i < batch.length; i++) {
      const timeMs = batch.timeMs[i]!;
      const facts = calendar.sessionAt(timeMs, '6E');
      prints++;
      if (!facts.isOpen) closedPrints.push(`line ${batch.line[i]} at ${chicagoIso(timeMs)}`);
      const tally = byTradeDate.get(facts.tradeDate) ?? { session: facts, prints: 0, firstMs: timeMs, lastMs: timeMs };
      tally.prints++;
      tally.lastMs = timeMs;
      byTradeDate.set(facts.tradeDate, tally);
    }
  }
  const rows = [...byTradeDate.entries()].map(([tradeDate, t]) => [
    tradeDate,
    chicagoIso(t.session.openMs).slice(0, 16),
    chicagoIso(t.session.closeMs).slice(0, 16),
    String(t.prints),
    chicagoIso(t.firstMs).slice(11, 19),
    chicagoIso(t.lastMs).slice(11, 19),
    t.session.note ?? '',
  ]);
  const out = process.stdout;
  out.write(
    'propsim demo: the GLOBEX calendar replayed over real CME 6E (Euro FX, March 2024 contract) 1-minute bars,\n',
  );
  out.write(
    'January 2024, from fixtures/market/6EH4-2024-01.csv.gz. Each bar is replayed as four prints (O, H/L, C).\n',
  );
  out.write('\n');
  out.write(
    formatTable(
      ['trade date', 'session open (CT)', 'session close (CT)', 'prints', 'first (CT)', 'last (CT)', 'note'],
      rows,
    ),
  );
  out.write(
    `\n${prints.toLocaleString('en-US')} prints in ${byTradeDate.size} trade dates (${byTradeDate.size - 1} session rolls); `,
  );
  out.write(
    closedPrints.length === 0
      ? 'every print lies inside an open session.\n'
      : `${closedPrints.length} prints fall in a closed period:\n  ${closedPrints.slice(0, 10).join('\n  ')}\n`,
  );
  out.write(
    "New Year's Day 2024 has no session (the market reopened at 17:00 CT on 1 January); on Martin Luther King Jr. Day\n",
  );
  out.write('(15 January) 6E traded to the normal 16:00 CT close while equity and rates halted at 12:00. Try:\n');
  out.write('  npx propsim calendar 2024-01-15T12:30:00-06:00 --instrument ES\n');
  return closedPrints.length === 0;
}
