// Each command's usage and line of description, in the order the help lists them: what `propsim --help` shows
// without loading any command (command-list.ts), and what each command's own definition reuses.
interface CommandSummary {
  /** The usage yargs lists: the name and its positional arguments. */
  command: string;
  describe: string;
}

export const COMMAND_SUMMARIES = {
  replay: {
    command: 'replay <scenarios..>',
    describe: 'Run scenario files (YAML or JSON) and check their expectations',
  },
  backtest: { command: 'backtest', describe: 'Run a plan-parameter grid over market data and trader activity' },
  optimize: {
    command: 'optimize',
    describe: "Search plan fields for the firm's goal; confirm on unseen traders",
  },
  worker: { command: 'worker', describe: 'Run back-test shards from a Redis queue (backtest --queue), until stopped' },
  import: {
    command: 'import',
    describe: "Broker fills exports and Databento downloads as propsim's CSVs: fills, market",
  },
  calibrate: {
    command: 'calibrate <files..>',
    describe: "Traders' fills → kinds of synthetic traders for back-tests, and how close they come",
  },
  report: { command: 'report', describe: 'Reports of a finished run: daily-positions' },
  serve: { command: 'serve', describe: 'Serve the sandbox REST API over a simulated clock' },
  calendar: {
    command: 'calendar [times..]',
    describe: 'Session facts (open?, trade date, session open/close) for each time',
  },
} satisfies Record<string, CommandSummary>;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
