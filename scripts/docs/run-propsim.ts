// Runs the built propsim command line for a doc example, from the package root, in a scratch folder whose
// path is shown as /tmp in the output (so the doc reads `--out /tmp/replay` whatever the machine's temp is).
import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/market/holiday-file.js';

export interface PropsimRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export class Scratch {
  /** The real folder; `shown(text)` writes it as /tmp. */
  readonly dir = realpathSync(mkdtempSync(join(tmpdir(), 'propsim-docs-')));

  path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  shown(text: string): string {
    return text.split(this.dir).join('/tmp');
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** `propsim <args>` with stdin; the output with the scratch folder shown as /tmp. */
  propsim(args: readonly string[], stdin = ''): Promise<PropsimRun> {
    return new Promise((done) => {
      const child = execFile(
        process.execPath,
        [join(packageRoot(), 'bin', 'propsim.js'), ...args],
        { cwd: packageRoot(), encoding: 'utf8', timeout: 300_000 },
        (error, stdout, stderr) => {
          done({
            status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
            stdout: this.shown(stdout),
            stderr: this.shown(stderr),
          });
        },
      );
      child.stdin?.end(stdin);
    });
  }
}
