// Runs the compiled CLI (npm test builds dist/ first) the way a user would.
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The compiled launcher, as a user runs it. */
export const CLI = fileURLToPath(new URL('../../bin/propsim.js', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], stdin?: string, options: { cwd?: string } = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    input: stdin ?? '',
    encoding: 'utf8',
    timeout: 60_000,
    ...options,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** runCli without blocking the test's thread, so several runs can share the wait. */
export function runCliAsync(
  args: readonly string[],
  stdin?: string,
  env: Record<string, string> = {},
  options: { cwd?: string; /** ms before the run is killed, 60,000 unless given */ timeout?: number } = {},
): Promise<CliResult> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env }, ...options },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        done({ status, stdout, stderr });
      },
    );
    child.stdin?.end(stdin ?? '');
  });
}
