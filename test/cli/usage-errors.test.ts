// Usage errors found before any work: a flag with no value, a --seed or --workers that is not a whole number,
// an --out that names a file. Each exits 2 with one message naming the flag (or path), and writes nothing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from './run-cli.js';

const HAND_CHECKED = 'test/backtest/fixtures/hand-checked.yaml';
const tmp = () => mkdtempSync(join(tmpdir(), 'propsim-usage-'));

describe.concurrent('a flag given with no value is an error, for every command', () => {
  const cases: Array<[string, string[]]> = [
    ['--out', ['replay', 'scenarios/oco-bracket.yaml', '--out', '--json']],
    ['--seed', ['replay', 'scenarios/oco-bracket.yaml', '--seed']],
    ['--config', ['backtest', '--config']],
    ['--workers', ['backtest', '--config', HAND_CHECKED, '--workers']],
    ['--instrument', ['calendar', '2026-03-09T10:00:00Z', '--instrument']],
    ['--run', ['report', 'daily-positions', '--account', 'eve', '--from', '2026-03-12', '--to', '2026-03-18', '--run']],
  ];
  it.each(cases)('%s in `propsim %s`', async (flag, args) => {
    const { status, stdout, stderr } = await runCliAsync(args);
    expect(status, `${args.join(' ')} is a usage error: ${stderr}`).toBe(2);
    const command = args[0] === 'report' ? 'report daily-positions' : args[0];
    expect(stderr, 'one line naming the flag').toBe(
      `propsim ${command}: ${flag}: expected a value after the flag, got none\n`,
    );
    expect(stdout).toBe('');
  });
});

describe.concurrent('--seed and --workers take whole numbers written in digits', () => {
  it.each(['-1', '1.5', 'abc'])('replay --seed %j exits 2 naming --seed and writes nothing', async (seed) => {
    const out = join(tmp(), 'out');
    const { status, stderr } = await runCliAsync([
      'replay',
      'scenarios/oco-bracket.yaml',
      '--out',
      out,
      '--seed',
      seed,
    ]);
    expect(status, stderr).toBe(2);
    expect(stderr, 'one line naming the flag').toBe(
      `propsim replay: --seed: expected a whole number of at least 0, written in digits, got ${JSON.stringify(seed)}\n`,
    );
    expect(existsSync(out), 'nothing ran, so nothing was written').toBe(false);
  });

  it('replay --seed 0 is accepted (the smallest seed)', async () => {
    const { status, stderr } = await runCliAsync([
      'replay',
      'scenarios/oco-bracket.yaml',
      '--out',
      tmp(),
      '--seed',
      '0',
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });

  it.each(['0', 'many'])('backtest --workers %j exits 2 naming --workers', async (workers) => {
    const { status, stderr } = await runCliAsync([
      'backtest',
      '--config',
      HAND_CHECKED,
      '--out',
      join(tmp(), 'out'),
      '--workers',
      workers,
    ]);
    expect(status, stderr).toBe(2);
    expect(stderr).toContain(
      `--workers: expected a whole number of at least 1, written in digits, got ${JSON.stringify(workers)}`,
    );
  });
});

describe.concurrent('--out naming a file is invalid input, found before any work', () => {
  it('replay and backtest refuse an --out that is a file, or lies under one, in one line naming the path', async () => {
    const dir = tmp();
    const file = join(dir, 'results.txt');
    writeFileSync(file, 'not a folder');
    const runs = await Promise.all([
      runCliAsync(['replay', 'scenarios/oco-bracket.yaml', '--out', file]),
      runCliAsync(['replay', 'scenarios/oco-bracket.yaml', '--out', join(file, 'sub')]),
      runCliAsync(['backtest', '--config', HAND_CHECKED, '--out', file, '--workers', '1']),
    ]);
    const [replayFile, replayUnder, backtestFile] = runs;
    for (const { status, stdout, stderr } of runs) {
      expect(status, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n'), 'one line, no stack trace').toHaveLength(1);
    }
    expect(replayFile!.stderr).toBe(
      `propsim replay: --out ${file}: is a file, not a folder; name a folder (it is created when missing)\n`,
    );
    expect(replayUnder!.stderr).toContain(`${file} is a file, so no folder can be made under it`);
    expect(backtestFile!.stderr).toBe(
      `propsim backtest: --out ${file}: is a file, not a folder; name a folder (it is created when missing)\n`,
    );
    expect(readdirSync(dir), 'nothing written beside the file').toEqual(['results.txt']);
  });

  it('replay, backtest and serve --db refuse a folder that cannot be made there, in one line naming the folder', async () => {
    // /proc takes no new folders: mkdir answers ENOENT there, on which Node's recursive mkdir never returned.
    const out = '/proc/propsim-no-such-folder/out';
    const runs = await Promise.all([
      runCliAsync(['replay', 'scenarios/oco-bracket.yaml', '--out', out]),
      runCliAsync(['backtest', '--config', HAND_CHECKED, '--out', out, '--workers', '1']),
      runCliAsync(['serve', '--port', '0', '--db', `${out}/sandbox.sqlite`]),
    ]);
    for (const { status, stdout, stderr } of runs) {
      expect(status, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n'), 'one line, no stack trace').toHaveLength(1);
    }
    const why = 'cannot make the folder /proc/propsim-no-such-folder (ENOENT)';
    expect(runs.map((run) => run.stderr)).toEqual([
      `propsim replay: --out ${out}: ${why}\n`,
      `propsim backtest: --out ${out}: ${why}\n`,
      `propsim serve: --db ${out}/sandbox.sqlite: ${why}\n`,
    ]);
  });

  it('serve refuses a --db under a file', async () => {
    const file = join(tmp(), 'notes.txt');
    writeFileSync(file, 'not a folder');
    const { status, stderr } = await runCliAsync(['serve', '--port', '0', '--db', join(file, 'sandbox.sqlite')]);
    expect(status, stderr).toBe(2);
    expect(stderr).toBe(
      `propsim serve: --db ${join(file, 'sandbox.sqlite')}: ${file} is a file, so no folder can be made under it\n`,
    );
  });

  it('replay refuses a file where a scenario writes its folder (it would be replaced)', async () => {
    const out = tmp();
    writeFileSync(join(out, 'oco-bracket'), 'mine');
    mkdirSync(join(out, 'other'));
    const { status, stderr } = await runCliAsync(['replay', 'scenarios/oco-bracket.yaml', '--out', out]);
    expect(status, stderr).toBe(2);
    expect(stderr).toContain(`${join(out, 'oco-bracket')} is a file`);
    expect(readdirSync(out).sort()).toEqual(['oco-bracket', 'other']);
  });
});
