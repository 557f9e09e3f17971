// yargs' copy of a command's help, formatted each time a command runs, is skipped (src/cli/help-copy.ts); this fails
// when a yargs release renames what it turns off, so the saving cannot vanish unnoticed.
import yargs, { type Argv } from 'yargs';
import { describe, expect, it } from 'vitest';
import { skipHelpCopy } from '../../src/cli/help-copy.js';

interface UsageInternals {
  hasCachedHelpMessage(): boolean;
}

function usageOf(y: Argv): UsageInternals {
  return (y as unknown as { getInternalMethods(): { getUsageInstance(): UsageInternals } })
    .getInternalMethods()
    .getUsageInstance();
}

async function runCommand(skip: boolean): Promise<{ ran: string | undefined; copied: boolean }> {
  let ran: string | undefined;
  const cli = yargs(['greet', '--name', 'ada']).command(
    'greet',
    'say hello',
    (y) => y.option('name', { type: 'string', describe: 'who to greet' }),
    (args) => void (ran = args.name),
  );
  if (skip) skipHelpCopy(cli);
  await cli.parseAsync();
  return { ran, copied: usageOf(cli).hasCachedHelpMessage() };
}

describe('skipHelpCopy', () => {
  it('yargs keeps a copy of the help of each command it runs; with skipHelpCopy it does not, and the command runs', async () => {
    expect(await runCommand(false)).toMatchObject({ ran: 'ada', copied: true });
    expect(await runCommand(true)).toMatchObject({ ran: 'ada', copied: false });
  });
});
