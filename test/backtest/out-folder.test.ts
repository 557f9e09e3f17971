// --out keeps what else is in the folder, and a bad market row found by a worker is invalid input (exit 2).
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

describe('backtest outputs', () => {
  it('replaces only its four files in --out; other files stay', () => {
    const out = mkdtempSync(join(tmpdir(), 'propsim-out-'));
    writeFileSync(join(out, 'important.txt'), 'keep');
    const { status } = runCli([
      'backtest',
      '--config',
      join(FIXTURES, 'hand-checked.yaml'),
      '--out',
      out,
      '--workers',
      '1',
    ]);
    expect(status).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      'cells.csv',
      'important.txt',
      'report.html',
      'summary.json',
      'traders.csv',
    ]);
    expect(readFileSync(join(out, 'important.txt'), 'utf8')).toBe('keep');
  });

  it('a bad market row met inside a worker exits 2 naming file and line, and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'propsim-badrow-'));
    for (const f of ['hand-checked.yaml', 'trader-fills.csv']) copyFileSync(join(FIXTURES, f), join(dir, f));
    const ticks = readFileSync(join(FIXTURES, 'esm6-ticks.csv'), 'utf8').trimEnd().split('\n');
    ticks.splice(4, 0, ticks[4]!.replace(/,(\d+)\.(\d+)(,|$)/, ',$1.1$3'));
    writeFileSync(join(dir, 'esm6-ticks.csv'), ticks.join('\n') + '\n');
    const out = join(dir, 'out');
    const { status, stderr } = runCli([
      'backtest',
      '--config',
      join(dir, 'hand-checked.yaml'),
      '--out',
      out,
      '--workers',
      '2',
    ]);
    expect(stderr).toMatch(/esm6-ticks\.csv:5: column price/);
    expect(status).toBe(2);
    expect(() => readdirSync(out)).toThrow();
  });
});
