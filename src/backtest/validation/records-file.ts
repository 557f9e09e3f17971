// A firm's records of what its traders' evaluations really did (docs/backtesting.md#validation-against-the-firms-records):
// a CSV `trader,outcome,date[,resets][,payouts_amount]` beside the fills, one row per trader. A back-test replays the
// traders' fills under the plan they traded and compares its outcomes with these. Every bad row is invalid input
// naming its line and column.
import { toCents } from '../../core/validation/input-fields.js';
import { readExportTable } from '../../import/export-table.js';
import { MarketDataError, quoteText } from '../../market/market-data-error.js';

export const RECORDED_OUTCOMES = ['passed', 'failed', 'open'] as const;
export type RecordedOutcome = (typeof RECORDED_OUTCOMES)[number];

export interface TraderRecord {
  trader: string;
  outcome: RecordedOutcome;
  /** The trade date of the outcome; null while open. */
  date: string | null;
  /** Resets the trader bought, when the file says. */
  resets?: number;
  /** The trader's share of every payout, in cents, when the file says. */
  payoutsCents?: number;
  line: number;
}

const REQUIRED = ['trader', 'outcome', 'date'] as const;
const OPTIONAL = ['resets', 'payouts_amount'] as const;
const TRADE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** @param sha256 what the file's bytes must hash to (a queue worker's check, docs/scaling.md#data-files) */
export function readRecordsFile(path: string, sha256?: string): TraderRecord[] {
  const table = readExportTable(path, sha256);
  const column = (name: string) => table.header.indexOf(name);
  for (const name of REQUIRED)
    if (column(name) < 0)
      throw new MarketDataError(
        path,
        1,
        undefined,
        `a header with ${[...REQUIRED, ...OPTIONAL.map((o) => `[${o}]`)].join(',')}`,
        quoteText(table.header.join(',')),
      );
  const unknown = table.header.find((name) => !(REQUIRED as readonly string[]).concat(OPTIONAL).includes(name));
  if (unknown !== undefined)
    throw new MarketDataError(
      path,
      1,
      unknown,
      `one of the columns ${[...REQUIRED, ...OPTIONAL].join(', ')}`,
      quoteText(unknown),
    );
  const seen = new Map<string, number>();
  return table.rows.map(({ fields, line }) => {
    const cell = (name: string) => (column(name) < 0 ? undefined : (fields[column(name)] ?? '').trim());
    const fail = (name: string, expected: string): never => {
      throw new MarketDataError(path, line, name, expected, quoteText(cell(name) ?? ''));
    };
    const trader = cell('trader')!;
    if (trader === '') fail('trader', 'a trader id, as in the fills');
    const earlier = seen.get(trader);
    if (earlier !== undefined) fail('trader', `one row per trader (${trader} is on line ${earlier} too)`);
    seen.set(trader, line);
    const outcome = cell('outcome')! as RecordedOutcome;
    if (!RECORDED_OUTCOMES.includes(outcome)) fail('outcome', RECORDED_OUTCOMES.join(', '));
    const date = cell('date')!;
    if (outcome === 'open' && date !== '') fail('date', 'no date for an open evaluation');
    if (outcome !== 'open' && !(TRADE_DATE.test(date) && isCalendarDate(date)))
      fail('date', `the trade date the evaluation ${outcome} on, YYYY-MM-DD`);
    const resets = cell('resets');
    if (resets !== undefined && resets !== '' && !/^\d+$/.test(resets)) fail('resets', 'a whole number of resets ≥ 0');
    const payouts = cell('payouts_amount');
    let payoutsCents: number | undefined;
    if (payouts !== undefined && payouts !== '') {
      try {
        payoutsCents = toCents(payouts, 'payouts_amount');
      } catch {
        fail('payouts_amount', 'an amount in dollars like 1250.00');
      }
      if (payoutsCents! < 0) fail('payouts_amount', 'an amount of at least 0');
    }
    return {
      trader,
      outcome,
      date: outcome === 'open' ? null : date,
      ...(resets === undefined || resets === '' ? {} : { resets: Number(resets) }),
      ...(payoutsCents === undefined ? {} : { payoutsCents }),
      line,
    };
  });
}

function isCalendarDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}
