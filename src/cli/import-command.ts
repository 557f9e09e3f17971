// `propsim import fills|market` (docs/backtesting.md#importing-broker-exports, docs/market-data.md#databento): broker
// exports and Databento downloads written as propsim's own CSVs. The output is written whole or not at all; what was
// read, kept, deduplicated and skipped goes to stderr. Exit 0, or 2 for invalid input (no --out file is left).
import type { Argv } from 'yargs';
import { fillsCsv } from '../import/fills-csv.js';
import type { DateOrder } from '../import/export-time.js';
import { FILL_FORMAT_NAMES, importFills, type FillFormatName, type ImportedFills } from '../import/import-fills.js';
import { writeFileAtomically } from '../reports/atomic-file.js';
import { fillsImportCounts, importWarnings } from '../reports/fills-import-table.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { helpExamples } from './help-examples.js';
import { DATE_ORDER_OPTION, importFlagError } from './import-flags.js';
import { importMarketCommand } from './import-market-command.js';
import { CliInputError, reportFailure } from './input-error.js';
import { checkFileFolder } from './out-folder.js';

interface ImportFillsArgs {
  files: string[] | undefined;
  format: FillFormatName;
  out: string;
  tz: string | undefined;
  map: string[] | undefined;
  dateOrder: DateOrder | undefined;
}

const importFillsCommand = {
  command: 'fills <files..>',
  describe: "Broker fills exports (Tradovate, NinjaTrader 8, any CSV) as propsim's fills CSV",
  builder: (y: Argv) =>
    y
      .positional('files', { describe: 'export files (CSV)', type: 'string', array: true })
      .option('format', {
        describe: 'the export: tradovate, ninjatrader or generic (any CSV, with --map)',
        choices: FILL_FORMAT_NAMES,
        requiresArg: true,
        demandOption: true,
      })
      .option('out', { describe: 'the fills CSV to write', type: 'string', requiresArg: true, demandOption: true })
      .option('tz', {
        describe:
          "IANA zone of times without an offset (NinjaTrader's Time, Tradovate's Timestamp): America/Chicago, …",
        type: 'string',
        requiresArg: true,
      })
      .option('map', {
        describe:
          'FIELD=COLUMN: read a field (ts, trader, instrument, side, quantity, price, commission, id) from COLUMN',
        type: 'string',
        array: true,
        requiresArg: true,
      })
      .option('date-order', DATE_ORDER_OPTION)
      .epilog(
        helpExamples([
          [
            'a NinjaTrader 8 executions export, exported on a PC in New York (US dates: month/day)',
            '$0 import fills --format ninjatrader executions.csv --tz America/New_York --date-order mdy --out fills.csv',
          ],
          [
            'any CSV: name the columns',
            '$0 import fills --format generic trades.csv --map ts=Time --map trader=Acct --map instrument=Symbol\n--map side=Side --map quantity=Qty --map price=Fill --tz America/Chicago --out fills.csv',
          ],
        ]),
      )
      .epilog(
        "Writes ts,trader,instrument,side,quantity,price (plus commission when the export has one), in time order. trader is the export's account unless mapped. Slash dates are read as month/day without --date-order only when a date of the file has a day above 12 (1/15/2024); a file whose every date reads both ways (days 1 to 12), or one that reads only as day/month, is refused until --date-order says. A fill exported twice (same id) is kept once, with a warning; an export without an id column (Fill ID, id, ID, or --map id=COLUMN) is not de-duplicated, and a warning says so; rows of calendar spreads and of quantity 0 are skipped. stderr shows per trader the rows read, kept, deduplicated and skipped.",
      ),
  handler: (args: ImportFillsArgs) => {
    try {
      runImportFills(args);
    } catch (error) {
      reportFailure('import fills', importFlagError(error));
    }
  },
};

export const importCommand = {
  ...COMMAND_SUMMARIES.import,
  builder: (y: Argv) =>
    y
      .command(importFillsCommand)
      .command(importMarketCommand)
      .demandCommand(1, 'Name what to import: fills or market.'),
  handler: () => {},
};

function runImportFills(args: ImportFillsArgs): void {
  checkFileFolder(args.out, '--out');
  const files = args.files ?? [];
  const imported = importFills(files, {
    format: args.format,
    ...(args.tz === undefined ? {} : { tz: args.tz }),
    ...(args.map === undefined ? {} : { map: args.map }),
    ...(args.dateOrder === undefined ? {} : { dateOrder: args.dateOrder }),
  });
  if (imported.fills.length === 0)
    throw new CliInputError(`no fills in ${files.join(', ')}: nothing to write to ${args.out}`);
  writeFileAtomically(args.out, fillsCsv(imported));
  process.stderr.write(fillsSummary(imported, args.out));
}

function fillsSummary(imported: ImportedFills, out: string): string {
  const warnings = importWarnings(imported, 'name the column with --map id=COLUMN')
    .map((w) => `propsim import fills: warning: ${w}\n`)
    .join('');
  const { headline, table } = fillsImportCounts(imported);
  return `${warnings}propsim import fills: wrote ${headline} to ${out}\n${table}`;
}
