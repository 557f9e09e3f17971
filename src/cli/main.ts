// The propsim command line: one file per command, listed in command-list.ts; this one wires them into yargs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { packageRoot } from '../market/holiday-file.js';
import { registerCommands } from './command-list.js';
import { skipHelpCopy } from './help-copy.js';
import { EXIT_INVALID_INPUT } from './input-error.js';

// `propsim ... | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const cli = yargs(hideBin(process.argv));
await registerCommands(cli, hideBin(process.argv));
skipHelpCopy(cli);

await cli
  .scriptName('propsim')
  .usage(
    '$0 <command> [options]\n\nDeterministic simulator of a futures prop-trading firm: replay scenarios, back-test plan risk\nparameters, write daily position reports and serve a sandbox of the REST API, all on a simulated clock.',
  )
  .demandCommand(1, 'Name a command; see the list above.')
  .middleware((argv) => keepLastValues(argv, arrayOptionsOf(cli)), true)
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  // Named, not looked up by yargs beside its own file: in the bundle (scripts/bundle-cli.ts) that is not propsim's.
  .version((JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version)
  .wrap(Math.min(110, process.stdout.columns ?? 110))
  // Usage errors: yargs' own (an unknown flag, a missing command) come with the help; a flag with no value
  // after it, or a bad value found by a coerce hook (flag-values.ts), is one line naming the flag, like any
  // other invalid input. Command handlers catch their own errors, so nothing else arrives here.
  .fail((message, error, y) => {
    const text = message ?? error?.message ?? 'invalid arguments';
    const missing = /^Not enough arguments following: (\S+)$/.exec(text);
    // yargs re-throws a coerce hook's error as its own, keeping the message: flag-values.ts starts it `--flag: `.
    if (missing || /^--[a-z-]+: /.test(text)) {
      const flagError = missing ? `--${missing[1]}: expected a value after the flag, got none` : text;
      process.stderr.write(`propsim ${commandWords(hideBin(process.argv))}: ${flagError}\n`);
    } else {
      y.showHelp();
      process.stderr.write(`\n${text}\n`);
    }
    process.exit(EXIT_INVALID_INPUT);
  })
  .parseAsync();

/** The command as typed (`replay`, `report daily-positions`): the words before the first flag or file. */
function commandWords(args: readonly string[]): string {
  const words: string[] = [];
  for (const arg of args) {
    if (!/^[a-z][a-z-]*$/.test(arg) || words.length === 2) break;
    words.push(arg);
  }
  return words.join(' ') || 'command';
}

/** The options of the command being parsed that take lists (yargs has the method; its types do not show it). */
function arrayOptionsOf(y: Argv): readonly string[] {
  return (y as unknown as { getOptions(): { array: string[] } }).getOptions().array;
}

/**
 * A flag of one value given twice keeps its last value, as the number flags always did (flag-values.ts), instead of
 * reaching its command as a list that it cannot use. List flags (--market FILE..., scenario files) keep every value.
 */
function keepLastValues(argv: Record<string, unknown>, arrayOptions: readonly string[]): void {
  for (const [key, value] of Object.entries(argv))
    if (Array.isArray(value) && key !== '_' && !arrayOptions.includes(key) && !arrayOptions.includes(kebab(key)))
      argv[key] = value.at(-1);
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
