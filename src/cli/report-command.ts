// `propsim report daily-positions --run DIR --account ID_OR_ALIAS --from DATE --to DATE [--instrument ID]
// [--format csv|json|html] [--market-dir DIR]` (docs/scenarios.md#propsim-report-daily-positions): the daily
// position records of a finished replay run, on stdout. The run's journal names its market files by reference, so
// they are read again (and checked to be the files the run read) for the marks at each close. Exit 0, or 2 for invalid input (nothing is printed on stdout).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { isIsoDate } from '../core/calendar/dates.js';
import { canonicalSymbol, parseSymbol, UnknownInstrumentError } from '../core/instruments.js';
import type { JournalEntry } from '../core/kernel/persistence/journal.js';
import { MarketPrintCursor, MarketPrintsError } from '../core/kernel/persistence/market-prints.js';
import {
  dailyPositions,
  JournalReadError,
  positionHistoryOf,
  commissionsByTradeDate,
  type PositionHistory,
  type RunAccount,
} from '../core/kernel/read/daily-positions.js';
import { loadHolidayFile } from '../market/holiday-file.js';
import { MarketReferenceError, referencedMarketPrints } from '../market/market-references.js';
import { scenarioFolder } from '../scenario/scenario-market.js';
import { listFew } from '../scenario/scenario-fields.js';
import {
  DAILY_POSITIONS_FORMATS,
  renderDailyPositions,
  type DailyPositionsFormat,
  withCommissions,
} from '../reports/daily-positions.js';
import { CliInputError, isInputError, reportFailure } from './input-error.js';
import { readRunJournal } from './journal-file.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { helpExamples } from './help-examples.js';

interface DailyPositionsArgs {
  run: string;
  account: string;
  from: string;
  to: string;
  instrument: string | undefined;
  format: DailyPositionsFormat;
  marketDir: string | undefined;
}

const NEEDS_REPLAY_RUN =
  'daily positions need a replay run folder, the one `propsim replay` writes as DIR/<scenario>/ with events.jsonl (a back-test output folder has no per-fill data)';

const dailyPositionsCommand = {
  command: 'daily-positions',
  describe: 'Daily position records of one account in a replay run folder',
  builder: (y: Argv) =>
    y
      .option('run', {
        describe: 'replay run folder holding events.jsonl (written by `propsim replay` as DIR/<scenario>/)',
        type: 'string',
        requiresArg: true,
        demandOption: true,
      })
      .option('account', { describe: 'account id or alias', type: 'string', requiresArg: true, demandOption: true })
      .option('from', {
        describe: 'first GLOBEX trade date, YYYY-MM-DD (inclusive)',
        type: 'string',
        requiresArg: true,
        demandOption: true,
      })
      .option('to', {
        describe: 'last GLOBEX trade date, YYYY-MM-DD (inclusive)',
        type: 'string',
        requiresArg: true,
        demandOption: true,
      })
      .option('instrument', { describe: 'only this instrument (ESM6, 6EH4, …)', type: 'string', requiresArg: true })
      .option('format', {
        describe: 'output on stdout',
        choices: DAILY_POSITIONS_FORMATS,
        default: 'csv' as DailyPositionsFormat,
        requiresArg: true,
      })
      .option('market-dir', {
        describe:
          "folder the run's market file paths are relative to (default: the scenario file's folder, as state.json names it)",
        type: 'string',
        requiresArg: true,
      })
      .epilog(
        helpExamples([
          [
            'CSV, every instrument (run folders written by `npm run demo`)',
            '$0 report daily-positions --run reports/demo/eod-trailing-week --account eve\n--from 2026-03-12 --to 2026-03-18',
          ],
          [
            'the API response body, with the two reconciling fields',
            '$0 report daily-positions --run reports/demo/oco-bracket --account dave\n--from 2026-03-10 --to 2026-03-10 --format json',
          ],
        ]),
      )
      .epilog(
        [
          'One record per (instrument_id, trade_date) where the account held or traded the instrument that GLOBEX trade date, sorted by trade_date then instrument_id: ' +
            'net_quantity and average_price at the session close (average_price is empty in CSV and null in JSON when flat), realized_pnl of that trade date, ' +
            'unrealized_pnl at the last print at or before the close; then commissions of that trade date and net_realized_pnl = realized_pnl - commissions, which is what the balance moved by. Sessions that had not opened by the end of the run are not reported; the session in progress at the end reads the final state.',
          'Daily positions need a replay run folder (with events.jsonl): a back-test output folder (cells.csv, traders.csv) has no per-fill data and is refused.',
          "The journal names the run's market files (path, bytes, sha256) instead of copying their prints: they are read again, from the scenario's folder or --market-dir, and a file that has changed since the run is refused.",
          'Exit codes: 0 done, 2 invalid input (the message goes to stderr, nothing to stdout).',
        ].join('\n\n'),
      ),
  handler: async (args: DailyPositionsArgs) => {
    try {
      process.stdout.write(await dailyPositionsReport(args));
    } catch (error) {
      reportFailure('report daily-positions', error);
    }
  },
};

export const reportCommand = {
  ...COMMAND_SUMMARIES.report,
  builder: (y: Argv) => y.command(dailyPositionsCommand).demandCommand(1, 'Name a report: daily-positions.'),
  handler: () => {},
};

async function dailyPositionsReport(args: DailyPositionsArgs): Promise<string> {
  for (const [flag, value] of [
    ['--from', args.from],
    ['--to', args.to],
  ] as const) {
    if (!isIsoDate(value))
      throw new CliInputError(`${flag}: expected a trade date written YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
  if (args.from > args.to)
    throw new CliInputError(
      `--from ${args.from} is after --to ${args.to}: the range is inclusive, from the earlier date to the later`,
    );
  const instrumentId = args.instrument === undefined ? undefined : instrumentOf(args.instrument);
  const { history, state } = await readRun(args.run, args.marketDir);
  const account = resolveAccount(history.accounts, args.account, args.run);
  const records = dailyPositions(history, new GlobexCalendar(loadHolidayFile()), {
    accountId: account.accountId,
    fromDate: args.from,
    toDate: args.to,
    ...(instrumentId === undefined ? {} : { instrumentId }),
  });
  if (records.length === 0) {
    const what = instrumentId === undefined ? '' : ` in ${instrumentId}`;
    process.stderr.write(
      `propsim report daily-positions: no records: account ${account.alias ?? account.accountId} held or traded nothing${what} on trade dates ${args.from} to ${args.to} of this run\n`,
    );
  }
  const rows = withCommissions(records, commissionsByTradeDate(history, account.accountId));
  return renderDailyPositions(args.format, rows, {
    run: args.run,
    ...(typeof state?.scenario === 'string' ? { scenario: state.scenario } : {}),
    accountId: account.accountId,
    alias: account.alias,
    fromDate: args.from,
    toDate: args.to,
    ...(instrumentId === undefined ? {} : { instrumentId }),
  });
}

function instrumentOf(text: string): string {
  try {
    return canonicalSymbol(parseSymbol(text));
  } catch (error) {
    if (error instanceof UnknownInstrumentError) throw new CliInputError(`--instrument: ${error.message}`);
    throw error;
  }
}

/** The run's journal (and state.json, when readable), or a message saying what the folder is instead. */
async function readRun(
  dir: string,
  marketDir: string | undefined,
): Promise<{ history: PositionHistory; state: Record<string, unknown> | undefined }> {
  if (!existsSync(dir)) throw new CliInputError(`--run ${dir}: no such folder; ${NEEDS_REPLAY_RUN}`);
  if (!statSync(dir).isDirectory()) throw new CliInputError(`--run ${dir}: not a folder; ${NEEDS_REPLAY_RUN}`);
  const journalFile = join(dir, 'events.jsonl');
  if (!existsSync(journalFile)) throw new CliInputError(`--run ${dir}: ${whatTheFolderHolds(dir)}`);
  const { entries, lastTimeMs } = await readRunJournal(journalFile);
  const state = readState(join(dir, 'state.json'));
  const market = await marketOf(entries, state, marketDir, journalFile);
  try {
    const history = positionHistoryOf(entries, market);
    return { history: { ...history, endMs: Math.max(history.endMs, lastTimeMs) }, state };
  } catch (error) {
    if (error instanceof JournalReadError || error instanceof MarketPrintsError || isInputError(error))
      throw new CliInputError(`${journalFile}: ${error.message}`);
    throw error;
  }
}

/** The prints of the market files the journal references, if it does, read from the scenario's folder. */
async function marketOf(
  entries: readonly JournalEntry[],
  state: Record<string, unknown> | undefined,
  marketDir: string | undefined,
  journalFile: string,
): Promise<MarketPrintCursor | undefined> {
  const files = entries.find((e) => e.type === 'input.market_files');
  if (!files) return undefined;
  let folder = marketDir;
  if (folder === undefined) {
    if (typeof state?.file !== 'string')
      throw new CliInputError(
        `${journalFile}: the run's market files are named relative to its scenario's folder, and no state.json names the scenario; pass --market-dir`,
      );
    folder = scenarioFolder(state.file);
  }
  try {
    return new MarketPrintCursor(await referencedMarketPrints((files.data as { files?: unknown }).files, folder));
  } catch (error) {
    if (error instanceof MarketReferenceError || isInputError(error)) {
      const hint = marketDir === undefined ? ` (pass --market-dir if the scenario's folder has moved)` : '';
      throw new CliInputError(`${journalFile}: ${error.message}${hint}`);
    }
    throw error;
  }
}

function whatTheFolderHolds(dir: string): string {
  const names = readdirSync(dir);
  if (names.includes('cells.csv') || names.includes('traders.csv'))
    return `this is a back-test output folder (cells.csv, traders.csv): it has no per-fill data; ${NEEDS_REPLAY_RUN}`;
  const runs = names.filter((name) => existsSync(join(dir, name, 'events.jsonl'))).sort();
  if (runs.length > 0) {
    return `no events.jsonl here, but it holds replay runs (${listFew(runs, 5)}): pass one of them, e.g. --run ${join(dir, runs[0]!)}`;
  }
  return `no events.jsonl; ${NEEDS_REPLAY_RUN}`;
}

function readState(file: string): Record<string, unknown> | undefined {
  try {
    const state: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // state.json only names the scenario in the HTML page
  }
}

/** An account by id, else by alias; an unknown one is refused with the accounts the run knows. */
function resolveAccount(accounts: readonly RunAccount[], wanted: string, run: string): RunAccount {
  const byId = accounts.find((a) => a.accountId === wanted);
  if (byId) return byId;
  const byAlias = accounts.filter((a) => a.alias === wanted);
  if (byAlias.length === 1) return byAlias[0]!;
  if (byAlias.length > 1)
    throw new CliInputError(
      `--account ${wanted}: the alias names ${byAlias.length} accounts of ${run} (${byAlias.map((a) => a.accountId).join(', ')}); pass the account id`,
    );
  if (accounts.length === 0) throw new CliInputError(`--account ${wanted}: the run ${run} has no accounts`);
  const aliases = [...new Set(accounts.flatMap((a) => (a.alias === null ? [] : [a.alias])))];
  const unnamed = accounts.filter((a) => a.alias === null).map((a) => a.accountId);
  const known = [
    aliases.length > 0 ? `known aliases: ${listFew(aliases)}` : '',
    unnamed.length > 0 ? `account ids without an alias: ${listFew(unnamed, 5)}` : '',
  ].filter(Boolean);
  throw new CliInputError(`--account ${wanted}: no such account in ${run}; ${known.join('; ')}`);
}
