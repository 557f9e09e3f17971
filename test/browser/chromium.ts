// Debian's chromium for the tests that drive a real page: found on the PATH, else installed with apt-get when the
// tests run as root (CI machines), else a clear message saying what to install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  const found = () => CANDIDATES.find((path) => existsSync(path));
  if (found()) return found()!;
  if (process.getuid?.() === 0) {
    const install = spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium'], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (found()) return found()!;
    throw new Error(`apt-get could not install chromium (exit ${install.status}): ${install.stderr.slice(-500)}`);
  }
  throw new Error('the browser tests need Debian chromium: sudo apt-get install chromium');
}
