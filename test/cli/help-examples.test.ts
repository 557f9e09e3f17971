// Each command's --help shows its examples as a shell session (src/cli/help-examples.ts): a comment saying what the
// example shows, then the command line whole, a long one continued with a trailing backslash, so that copying it
// gives the command and nothing cut in the middle.
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const COMMANDS = [
  ['replay'],
  ['backtest'],
  ['report', 'daily-positions'],
  ['serve'],
  ['calendar'],
  ['import', 'fills'],
  ['import', 'market'],
  ['calibrate'],
];

/** The examples of a help text: [what it shows, the command line with its continuations joined]. */
function examplesOf(help: string): [string, string][] {
  const block = help
    .split('\nExamples:\n')[1]
    ?.split('\n\n')
    .filter((text) => text.startsWith('  # '));
  return (block ?? []).map((text) => {
    const [comment, ...lines] = text.split('\n');
    return [comment!.slice(4), lines.map((line) => line.trim().replace(/ \\$/, '')).join(' ')];
  });
}

describe('--help examples', () => {
  it.each(COMMANDS)('%s %s --help gives each example whole, after what it shows', (...command) => {
    const { status, stdout } = runCli([...command, '--help']);
    expect(status).toBe(0);
    const examples = examplesOf(stdout);
    expect(examples.length, 'every command shows at least one example').toBeGreaterThan(0);
    for (const [shows, line] of examples) {
      expect(shows.length, 'each example says what it shows').toBeGreaterThan(0);
      expect(line, `${shows}: the command line names the command`).toContain(`propsim ${command.join(' ')}`);
    }
    const lines = stdout.split('\nExamples:\n')[1]!.split('\n\n')[0]!.split('\n');
    const continued = lines.filter((line, i) => line.endsWith(' \\') && !lines[i + 1]?.startsWith('      '));
    expect(continued, 'a line continued with \\ is followed by its continuation').toEqual([]);
  });

  it("calendar's example runs as shown", () => {
    const [, line] = examplesOf(runCli(['calendar', '--help']).stdout)[0]!;
    const args = line.split(' ').slice(1); // after "propsim"
    const { status, stdout } = runCli(args);
    expect(status, line).toBe(0);
    expect(stdout, 'the first instant of the session after the DST switch').toContain('2026-03-08');
  });
});
