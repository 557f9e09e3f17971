// bin/propsim.js runs the CLI's bundle (scripts/bundle-cli.ts, docs/architecture.md#layout): it answers as the
// compiled modules do, from any working directory, and knows its own version (yargs would look for a package.json
// beside its own code, which in the bundle is not propsim's).
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('the propsim launcher', () => {
  it("prints package.json's version, run from another folder", () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const result = runCli(['--version'], undefined, { cwd: tmpdir() });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });
});
