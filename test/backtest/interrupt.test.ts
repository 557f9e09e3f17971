// Ctrl-C or SIGTERM stops `propsim backtest` with exit 130 and nothing written (docs/backtesting.md): while cells run,
// and while the report is drawn after the last one.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI } from '../cli/run-cli.js';

const CONFIG = fileURLToPath(new URL('./fixtures/synthetic-6e.yaml', import.meta.url));

/** Runs the 4-cell fixture grid with 60 traders and sends `signal` once stderr shows `line` (a cell's progress line). */
async function interruptedAfter(line: string, signal: NodeJS.Signals): Promise<{ code: number | null; out: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'propsim-bt-interrupt-')), 'out');
  const child = spawn(process.execPath, [
    CLI,
    'backtest',
    '--config',
    CONFIG,
    '--out',
    out,
    '--traders',
    '60',
    '--workers',
    '2',
  ]);
  let stderr = '';
  let sent = false; // once: a second Ctrl-C is the user's way to force the stop
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (!sent && stderr.includes(line)) sent = child.kill(signal);
  });
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  expect(stderr).toContain('backtest: interrupted; nothing was written');
  return { code, out };
}

describe('propsim backtest interrupted', () => {
  it('Ctrl-C while cells run: the rest are cancelled, exit 130, no --out folder', async () => {
    const { code, out } = await interruptedAfter('cell 1/4 done', 'SIGINT');
    expect(code).toBe(130);
    expect(existsSync(out)).toBe(false);
  });

  it('SIGTERM while the report is drawn, after the last cell: exit 130, nothing written', async () => {
    const { code, out } = await interruptedAfter('cell 4/4 done', 'SIGTERM');
    expect(code).toBe(130);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dirname(out)), 'no staging folder is left beside it').toEqual([]);
  });
});
