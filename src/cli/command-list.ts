// The commands, in the order the help lists them: each one's usage and line of description, and how to load it. Only
// the command named on the line is loaded (each pulls in its own layers: the sandbox's web server, the back-tester's
// worker pool); the summaries alone answer `propsim --help` and a mistyped word.
import type { Argv } from 'yargs';
import { COMMAND_SUMMARIES, type CommandName } from './command-summaries.js';

/** Each command's loader: its module, registered in full (options, positionals, handler); `args` as typed. */
const LOADERS: Record<CommandName, (cli: Argv, args: readonly string[]) => Promise<unknown>> = {
  replay: async (cli, args) => {
    // Its chart threads load echarts while this thread loads the command, so a small replay does not wait for them.
    // Not for the help, which would wait for them to stop.
    if (!args.some((arg) => HELP_FLAGS.has(arg)))
      (await import('../reports/chart-workers.js')).startChartWorkersEarly();
    return cli.command((await import('./replay-command.js')).replayCommand);
  },
  backtest: async (cli) => cli.command((await import('./backtest-command.js')).backtestCommand),
  optimize: async (cli) => cli.command((await import('./optimize-command.js')).optimizeCommand),
  worker: async (cli) => cli.command((await import('./worker-command.js')).workerCommand),
  import: async (cli) => cli.command((await import('./import-command.js')).importCommand),
  calibrate: async (cli) => cli.command((await import('./calibrate-command.js')).calibrateCommand),
  report: async (cli) => cli.command((await import('./report-command.js')).reportCommand),
  serve: async (cli) => cli.command((await import('./serve-command.js')).serveCommand),
  calendar: async (cli) => cli.command((await import('./calendar-command.js')).calendarCommand),
};

/** Flags that print and exit before any command runs. */
const HELP_FLAGS = new Set(['--help', '-h', '--version']);

function isCommandName(word: string | undefined): word is CommandName {
  return word !== undefined && Object.hasOwn(COMMAND_SUMMARIES, word);
}

/** The named command, loaded in full; without one, every command's summary, for the help and the suggestions. */
export async function registerCommands(cli: Argv, args: readonly string[]): Promise<void> {
  const named = args[0];
  if (isCommandName(named)) {
    await LOADERS[named](cli, args);
    return;
  }
  for (const { command, describe } of Object.values(COMMAND_SUMMARIES)) cli.command(command, describe);
}
