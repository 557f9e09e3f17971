// The examples of a command's --help, written as a shell session: what each shows as a comment, then the command
// line whole (a long one continued with `\`). yargs' own examples are a two-column table that cut a long command line
// mid-way (`--instrument` ending one line, `ES` starting the next), which a user copying it then gets wrong.

/** An example: what it shows, and its command line (`$0` is the program's name; a `\n` continues it on a new line). */
export type HelpExample = readonly [shows: string, command: string];

/** The examples as the text of an epilogue (yargs puts `$0` in). */
export function helpExamples(examples: readonly HelpExample[]): string {
  const blocks = examples.map(([shows, command]) => `  # ${shows}\n  ${command.split('\n').join(' \\\n      ')}`);
  return `Examples:\n${blocks.join('\n\n')}\n`;
}
