// `propsim calibrate FILLS... --out kinds.yaml` (docs/backtesting.md#calibrating-synthetic-traders): traders' fills
// (propsim's CSV or any broker export `propsim import fills` reads) → kinds of synthetic traders a back-test config
// can use, and, with --market, how close those kinds come to traders held out of the calibration, on stderr.
import type { Argv } from 'yargs';
import { readTraderFills, type TraderFill } from '../backtest/fills/trader-fills.js';
import { isIsoDate } from '../core/calendar/dates.js';
import { marketSpecsOf } from '../api/sandbox/market-files.js';
import { calibrate, CalibrationInputError } from '../calibrate/calibrate.js';
import { outcomeHeading, outcomeTable, outcomeVerdict, powerWords } from '../calibrate/outcome-words.js';
import type { PlanOutcomes } from '../calibrate/plan-outcomes.js';
import type { PlanFromFile } from '../calibrate/calibration-cell.js';
import { bundledPlansFolder, findPlanFileIn, planNamesIn } from '../scenario/plan-files.js';
import { FILL_FORMAT_NAMES, importFills, type FillFormatName } from '../import/import-fills.js';
import type { DateOrder } from '../import/export-time.js';
import { writeFileAtomically } from '../reports/atomic-file.js';
import { importWarnings } from '../reports/fills-import-table.js';
import { basename, dirname, join, relative } from 'node:path';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { wholeNumberFlag } from './flag-values.js';
import { helpExamples } from './help-examples.js';
import { DATE_ORDER_OPTION, importFlagError } from './import-flags.js';
import { CliInputError, reportFailure } from './input-error.js';
import { checkFileFolder } from './out-folder.js';

const FORMATS = ['propsim', ...FILL_FORMAT_NAMES] as const;

interface CalibrateArgs {
  files: string[] | undefined;
  out: string;
  format: (typeof FORMATS)[number];
  tz: string | undefined;
  map: string[] | undefined;
  dateOrder: DateOrder | undefined;
  kinds: number | undefined;
  seed: number;
  holdout: number;
  market: string[] | undefined;
  period: { from: string; to: string } | undefined;
  plan: string | undefined;
}

export const calibrateCommand = {
  ...COMMAND_SUMMARIES.calibrate,
  builder: (y: Argv) =>
    y
      .positional('files', {
        describe: 'fills files: propsim CSV, or exports in --format',
        type: 'string',
        array: true,
      })
      .option('out', {
        describe: 'the kinds file to write (YAML)',
        type: 'string',
        requiresArg: true,
        demandOption: true,
      })
      .option('format', {
        describe: 'propsim (the fills CSV), or a broker export as `propsim import fills` reads it',
        choices: FORMATS,
        default: 'propsim' as const,
        requiresArg: true,
      })
      .option('tz', { describe: 'IANA zone of export times without an offset', type: 'string', requiresArg: true })
      .option('map', { describe: 'FIELD=COLUMN, as in import fills', type: 'string', array: true, requiresArg: true })
      .option('date-order', DATE_ORDER_OPTION)
      .option('kinds', {
        describe: 'how many kinds (default: the fewest that a next kind would not split by 30 %)',
        type: 'string',
        requiresArg: true,
        coerce: wholeNumberFlag('kinds', 1),
      })
      .option('seed', {
        describe: 'seed of the held-out draw, the clustering and the synthetic run',
        type: 'string',
        default: '1',
        requiresArg: true,
        coerce: wholeNumberFlag('seed', 0),
      })
      .option('holdout', {
        describe: 'share of traders held out to compare with the kinds (with --market), 0 to under 1',
        type: 'string',
        default: '0.5',
        requiresArg: true,
        coerce: holdoutFlag,
      })
      .option('market', {
        describe:
          "market the kinds are traded on for the comparison: tick CSVs, or a YAML file with files: as in configs; a kind trades its instruments when it has a file of each root, else the first file's instrument",
        type: 'string',
        array: true,
        requiresArg: true,
      })
      .option('period', {
        describe: 'trade dates of that run, FROM:TO (YYYY-MM-DD:YYYY-MM-DD)',
        type: 'string',
        requiresArg: true,
        coerce: periodFlag,
      })
      .option('plan', {
        describe:
          "also back-test under this plan (plans/NAME.yaml in the working folder, else a bundled plan) the held-out traders' own fills and the kinds (grown to 4 synthetic traders to each held-out one) on --market over --period, and compare their first outcomes (passed, failed, open) by an exact test; needs --market, --period and --holdout above 0",
        type: 'string',
        requiresArg: true,
      })
      .epilog(
        helpExamples([
          [
            'kinds from a NinjaTrader export (US dates: month/day), all traders, no comparison',
            '$0 calibrate --format ninjatrader executions.csv --tz America/New_York --date-order mdy --out kinds.yaml',
          ],
          [
            'half the traders held out and compared with the kinds traded on January 2024 6E bars',
            '$0 calibrate fills.csv --out kinds.yaml --market fixtures/market/6EH4-2024-01.yaml\n--period 2024-01-02:2024-01-31 --holdout 0.5 --seed 7',
          ],
          [
            'and both back-tested under the bundled 50K end-of-day plan: do the kinds pass and fail as the traders do?',
            '$0 calibrate fills.csv --out kinds.yaml --market fixtures/market/6EH4-2024-01.yaml\n--period 2024-01-02:2024-01-31 --plan eval-50k-eod',
          ],
        ]),
      )
      .epilog(
        'Per trader: round trips (flat to flat, FIFO by instrument), round trips a day, contracts, minutes held, the stop and target distances implied by losing and winning exits (in ticks), win rate, entry times (CT). Traders are clustered by seeded k-means into kinds, each written as a random_bracket block with a comment saying what its real traders look like: its instruments (the roots of its round trips as whole weights, roots under 5 % left out; one product group for the whole file, the one of the most round trips, with what was left out said on stderr), max_hold_minutes (the 90th percentile of its minutes held, plus one) and active_hours when its traders keep to part of the session. Use it in a back-test config as traders: { kinds: { path: kinds.yaml, count: 5000 } }.',
      ),
  handler: async (args: CalibrateArgs) => {
    try {
      await runCalibrate(args);
    } catch (error) {
      reportFailure('calibrate', inputError(error));
    }
  },
};

async function runCalibrate(args: CalibrateArgs): Promise<void> {
  checkFileFolder(args.out, '--out');
  const files = args.files ?? [];
  if ((args.market === undefined) !== (args.period === undefined))
    throw new CliInputError(
      '--market and --period: give both (the market the kinds are traded on, and its dates) or neither',
    );
  const market = args.market && args.period && { market: marketSpecsOf(args.market), period: args.period };
  if (market && market.market[0]?.instrument === undefined)
    throw new CliInputError(
      `--market: the first market file needs an instrument (the synthetic traders trade it): name it in a YAML file list, files: [{ path, format, instrument }]`,
    );
  const plan = args.plan === undefined ? undefined : planNamed(args.plan, args);
  const result = await calibrate(readFills(files, args), {
    seed: args.seed,
    ...(args.kinds === undefined ? {} : { kinds: args.kinds }),
    holdout: args.holdout,
    ...(market ? { market: { market: market.market, period: market.period } } : {}),
    ...(plan ? { plan } : {}),
    sources: files.map((f) => basename(f)),
  });
  writeFileAtomically(args.out, result.yaml);
  const lines = [
    `propsim calibrate: wrote ${result.kinds.length} kind${result.kinds.length === 1 ? '' : 's'} of ${traders(result.calibrated.length)} to ${args.out}`,
  ];
  lines.push(...result.notes.map((note) => `propsim calibrate: ${note}`));
  if (!market) lines.push('propsim calibrate: no --market: nobody held out, nothing compared');
  if (result.comparison)
    lines.push(
      `propsim calibrate: how close: ${result.heldOut.length} held-out ${result.heldOut.length === 1 ? 'trader' : 'traders'} and the kinds traded on ${args.market!.join(', ')}, ${args.period!.from} to ${args.period!.to}`,
      result.comparison.table.trimEnd(),
    );
  if (result.outcomes) lines.push(...outcomeLines(result.outcomes, args.period!));
  process.stderr.write(`${lines.join('\n')}\n`);
}

/** The plan --plan names: plans/NAME.yaml in the working folder, else a bundled plan; refused without a comparison. */
function planNamed(name: string, args: CalibrateArgs): PlanFromFile {
  const missing = [
    ...(args.market === undefined ? ['--market'] : []),
    ...(args.period === undefined ? ['--period'] : []),
    ...(args.holdout === 0 ? ['--holdout above 0'] : []),
  ];
  if (missing.length > 0)
    throw new CliInputError(
      `--plan: back-tests held-out traders against the kinds on a market, so it needs --market, --period and --holdout above 0 (the default is 0.5); missing ${missing.join(', ')}`,
    );
  const found = findPlanFileIn(name, process.cwd());
  if (found) return { name, path: found.path, fields: found.fields };
  const local = planNamesIn(join(process.cwd(), 'plans'));
  throw new CliInputError(
    `--plan: expected ${local.length > 0 ? `a plan file in ./plans (${local.join(', ')}) or ` : ''}a bundled plan (${planNamesIn(bundledPlansFolder()).join(', ')}), got ${JSON.stringify(name)}`,
  );
}

/** A bundled plan says so; a local one is named from the working folder. */
function planWhere(path: string): string {
  return dirname(path) === bundledPlansFolder() ? 'a bundled plan' : relative(process.cwd(), path);
}

function outcomeLines(outcomes: PlanOutcomes, period: { from: string; to: string }): string[] {
  return [
    `propsim calibrate: ${outcomeHeading(outcomes, period, planWhere(outcomes.plan.path))}`,
    outcomeTable(outcomes).trimEnd(),
    `propsim calibrate: ${outcomeVerdict(outcomes)}`,
    `propsim calibrate: ${powerWords(outcomes)}`,
    'propsim calibrate: the exact test is of the first outcomes at the end of the period; fail incidence by day is shown, not tested',
  ];
}

function readFills(files: readonly string[], args: CalibrateArgs): TraderFill[] {
  if (args.format !== 'propsim') {
    const imported = importFills(files, {
      format: args.format as FillFormatName,
      ...(args.tz === undefined ? {} : { tz: args.tz }),
      ...(args.map === undefined ? {} : { map: args.map }),
      ...(args.dateOrder === undefined ? {} : { dateOrder: args.dateOrder }),
    });
    // Told now: the fills a duplicate or an export without ids adds count in every measure below.
    for (const warning of importWarnings(imported, 'name the column with --map id=COLUMN'))
      process.stderr.write(`propsim calibrate: warning: ${warning}\n`);
    return imported.fills;
  }
  // propsim's fills CSV has its own columns and UTC times: a --tz, --map or --date-order given for it would be ignored.
  const given = { '--tz': args.tz, '--map': args.map, '--date-order': args.dateOrder };
  const ignored = Object.entries(given).find(([, value]) => value !== undefined)?.[0];
  if (ignored)
    throw new CliInputError(
      `${ignored}: only for exports (--format tradovate, ninjatrader or generic); propsim's fills CSV has its own columns and UTC times`,
    );
  const fills = files.flatMap((file) => readTraderFills(file));
  // Stable: fills of one instant keep their file order.
  return fills.sort((a, b) => a.timeMs - b.timeMs);
}

function holdoutFlag(value: unknown): number {
  const text = String(Array.isArray(value) ? value.at(-1) : value);
  const share = /^(0(\.\d+)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(share))
    throw new CliInputError(`--holdout: expected a share from 0 to under 1 such as 0.5, got ${JSON.stringify(text)}`);
  return share;
}

function periodFlag(value: unknown): { from: string; to: string } {
  const text = String(Array.isArray(value) ? value.at(-1) : value);
  const [from, to, ...rest] = text.split(':');
  if (from === undefined || to === undefined || rest.length > 0 || !isIsoDate(from) || !isIsoDate(to) || to < from)
    throw new CliInputError(
      `--period: expected FROM:TO trade dates such as 2024-01-02:2024-01-31, got ${JSON.stringify(text)}`,
    );
  return { from, to };
}

function inputError(error: unknown): unknown {
  if (error instanceof CalibrationInputError) return new CliInputError(error.message);
  return importFlagError(error);
}

/** "1 trader", "200 traders". */
function traders(n: number): string {
  return `${n.toLocaleString('en-US')} trader${n === 1 ? '' : 's'}`;
}
