// `propsim import market --format databento FILE... --out FILE [--symbols ESH4,NQH4]` (docs/market-data.md#databento):
// Databento trades or ohlcv downloads as propsim's ticks or bars CSV, written whole or not at all.
import type { Argv } from 'yargs';
import { canonicalSymbol, parseSymbol } from '../core/instruments.js';
import { importDatabento, type MarketImport } from '../import/databento.js';
import { AtomicFile } from '../reports/atomic-file.js';
import { helpExamples } from './help-examples.js';
import { CliInputError, reportFailure } from './input-error.js';
import { checkFileFolder } from './out-folder.js';

interface ImportMarketArgs {
  files: string[] | undefined;
  format: 'databento';
  out: string;
  symbols: string | undefined;
}

export const importMarketCommand = {
  command: 'market <files..>',
  describe: "Databento trades or ohlcv downloads (CSV or JSON lines) as propsim's ticks or bars CSV",
  builder: (y: Argv) =>
    y
      .positional('files', {
        describe: 'Databento files (CSV or JSON lines, plain or .gz)',
        type: 'string',
        array: true,
      })
      .option('format', {
        describe: 'the download',
        choices: ['databento'] as const,
        requiresArg: true,
        demandOption: true,
      })
      .option('out', {
        describe: 'the ticks or bars CSV to write',
        type: 'string',
        requiresArg: true,
        demandOption: true,
      })
      .option('symbols', {
        describe: 'only these contracts, comma-separated: ESH4,NQH4',
        type: 'string',
        requiresArg: true,
      })
      .epilog(
        helpExamples([
          [
            'a day of ES and NQ trades, the March 2024 contracts only',
            '$0 import market --format databento glbx-mdp3-20240102.trades.csv --symbols ESH4,NQH4 --out ticks.csv',
          ],
          ['one-minute bars', '$0 import market --format databento glbx-mdp3-20240102.ohlcv-1m.csv --out bars.csv'],
        ]),
      )
      .epilog(
        "trades become ticks (ts,instrument,price,size; ts = ts_event), ohlcv-1s|1m|1h|1d become bars (ts,instrument,open,high,low,close,volume; ts = the bar's start), times in Unix ms, in time order (prints of one millisecond in file order). Times may be integer ns or ISO (pretty_ts), prices integers of 1e-9 or decimals (pretty_px). Rows of spreads (ESH4-ESM4) are skipped and counted on stderr.",
      ),
  handler: async (args: ImportMarketArgs) => {
    try {
      await runImportMarket(args);
    } catch (error) {
      reportFailure('import market', error);
    }
  },
};

async function runImportMarket(args: ImportMarketArgs): Promise<void> {
  checkFileFolder(args.out, '--out');
  const symbols = args.symbols === undefined ? undefined : symbolFilter(args.symbols);
  let out: AtomicFile | undefined;
  try {
    const imported = await importDatabento(
      args.files ?? [],
      () => (out = new AtomicFile(args.out)),
      symbols === undefined ? {} : { symbols },
    );
    if (imported.written.size === 0)
      throw new CliInputError(
        `no prints to write: ${args.files?.join(', ')} hold${symbols ? ' none of --symbols' : ' only spreads'}`,
      );
    out!.commit();
    process.stderr.write(marketSummary(imported, args.out));
  } finally {
    out?.discard();
  }
}

function symbolFilter(text: string): Set<string> {
  const symbols = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (symbols.length === 0) throw new CliInputError('--symbols: expected contracts such as ESH4,NQH4, got ""');
  return new Set(
    symbols.map((symbol) => {
      try {
        const parsed = parseSymbol(symbol);
        if (!parsed.contract) throw new Error('a root');
        return canonicalSymbol(parsed);
      } catch (error) {
        throw new CliInputError(
          `--symbols: expected contracts such as ESH4,NQH4, got ${JSON.stringify(symbol)} (${(error as Error).message})`,
        );
      }
    }),
  );
}

function marketSummary(imported: MarketImport, out: string): string {
  const { kind, rows, spreads, filteredOut, written, barMs } = imported;
  const total = [...written.values()].reduce((a, b) => a + b, 0);
  const perSymbol = [...written].map(([symbol, n]) => `${symbol} ${n}`).join(', ');
  const lines = [`read ${rows} rows; wrote ${total} ${kind === 'ticks' ? 'prints' : 'bars'} to ${out} (${perSymbol})`];
  if (spreads > 0) lines.push(`skipped ${rowsText(spreads)} of spreads`);
  if (filteredOut > 0) lines.push(`left out ${rowsText(filteredOut)} of other contracts (--symbols)`);
  if (imported.sorted) lines.push('ts_event stepped back in the input: rows were sorted by time');
  if (kind === 'bars')
    lines.push(`list it as { path: ${out}, format: bars, bar_ms: ${barMs}${written.size > 1 ? ', sort: true' : ''} }`);
  return lines.map((line) => `propsim import market: ${line}\n`).join('');
}

function rowsText(count: number): string {
  return `${count} row${count === 1 ? '' : 's'}`;
}
