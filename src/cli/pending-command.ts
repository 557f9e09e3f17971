// Commands that arrive with later issues: listed so `--help` shows the whole tool, exiting 2 until then.
import { EXIT_INVALID_INPUT } from './input-error.js';

export function pendingCommand(command: string, describe: string) {
  const name = command.split(' ')[0];
  return {
    command,
    describe: `${describe} (not available yet)`,
    builder: {},
    handler: () => {
      process.stderr.write(
        `propsim: '${name}' is not available yet in this version of propsim; it arrives with a later release.\n`,
      );
      process.exitCode = EXIT_INVALID_INPUT;
    },
  };
}
