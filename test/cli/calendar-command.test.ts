import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('propsim calendar', () => {
  it('answers one JSON object a line with the contract fields', () => {
    const { status, stdout, stderr } = runCli(['calendar', '2026-03-08T17:00:00-05:00', '1773007199999', '--json']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { time_ms: 1773007200000, instrument: 'ES', trade_date: '2026-03-09', is_open: true, session_open_ms: 1773007200000, session_close_ms: 1773090000000 },
      { time_ms: 1773007199999, instrument: 'ES', trade_date: '2026-03-09', is_open: false, session_open_ms: 1773007200000, session_close_ms: 1773090000000 },
    ]);
    expect(Object.keys(lines[0])).toEqual(['time_ms', 'instrument', 'trade_date', 'is_open', 'session_open_ms', 'session_close_ms']);
  });

  it('reads times from stdin, one a line, skipping blanks and comments', () => {
    const { status, stdout } = runCli(['calendar', '--instrument', '6E', '--json'], '# MLK 2024\n2024-01-15T18:00:00Z\n\n2024-01-01T10:00:00Z\n');
    expect(status).toBe(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.trade_date, l.is_open])).toEqual([
      ['2024-01-15', true],
      ['2024-01-02', false],
    ]);
  });

  it('prints a readable table in Chicago time with holiday notes', () => {
    const { status, stdout } = runCli(['calendar', '2025-11-27T10:00:00-06:00']);
    expect(status).toBe(0);
    expect(stdout).toContain('time (CT)');
    expect(stdout).toContain('2025-11-27T10:00:00.000-06:00  ES          open    2025-11-27');
    expect(stdout).toContain('halt 12:00 CT: Thanksgiving');
  });

  it('refuses a bad time with exit 2, naming it, and prints no partial answer', () => {
    const { status, stdout, stderr } = runCli(['calendar', '2026-03-08T17:00:00Z', '2026-03-08 17:00']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('argument 2: expected an ISO 8601 time with an offset or Z');
  });

  it('names the stdin line of a bad time', () => {
    const { status, stderr } = runCli(['calendar', '--json'], '2026-03-08T17:00:00Z\nnoon\n');
    expect(status).toBe(2);
    expect(stderr).toContain('stdin line 2');
  });

  it('refuses an unknown instrument with exit 2', () => {
    const { status, stderr } = runCli(['calendar', '2026-03-08T17:00:00Z', '--instrument', 'XX']);
    expect(status).toBe(2);
    expect(stderr).toContain('instrument "XX": unknown root');
  });

  it('uses a user holiday file and reports a bad one by field', () => {
    const { status, stderr } = runCli(['calendar', '2026-03-08T17:00:00Z', '--holidays', 'package.json']);
    expect(status).toBe(2);
    expect(stderr).toContain('package.json: version: expected 1');
  });
});

describe('propsim command line', () => {
  it('lists all five commands in --help', () => {
    const { status, stdout } = runCli(['--help']);
    expect(status).toBe(0);
    for (const command of ['replay', 'backtest', 'report', 'serve', 'calendar']) expect(stdout).toContain(`propsim ${command}`);
  });

  it('says a command is not available yet and exits 2', () => {
    const { status, stderr } = runCli(['serve']);
    expect(status).toBe(2);
    expect(stderr).toContain("'serve' is not available yet");
  });

  it('exits 2 on an unknown option', () => {
    const { status, stderr } = runCli(['calendar', '--bogus']);
    expect(status).toBe(2);
    expect(stderr).toContain('Unknown argument');
  });
});
