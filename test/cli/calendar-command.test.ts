import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('propsim calendar', () => {
  it('answers one JSON object a line with the contract fields', () => {
    const { status, stdout, stderr } = runCli(['calendar', '2026-03-08T17:00:00-05:00', '1773007199999', '--json']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        time_ms: 1773007200000,
        instrument: 'ES',
        trade_date: '2026-03-09',
        is_open: true,
        session_open_ms: 1773007200000,
        session_close_ms: 1773090000000,
      },
      {
        time_ms: 1773007199999,
        instrument: 'ES',
        trade_date: '2026-03-09',
        is_open: false,
        session_open_ms: 1773007200000,
        session_close_ms: 1773090000000,
      },
    ]);
    expect(Object.keys(lines[0])).toEqual([
      'time_ms',
      'instrument',
      'trade_date',
      'is_open',
      'session_open_ms',
      'session_close_ms',
    ]);
  });

  it('reads times from stdin, one a line, skipping blanks and comments', () => {
    const { status, stdout } = runCli(
      ['calendar', '--instrument', '6E', '--json'],
      '# MLK 2024\n2024-01-15T18:00:00Z\n\n2024-01-01T10:00:00Z\n',
    );
    expect(status).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
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

  it('says why the market is closed: the holiday by name (also as "holiday" in JSON), weekend, daily halt, early close', () => {
    const times = [
      '2024-01-01T10:00:00-06:00',
      '2024-01-06T12:00:00-06:00',
      '2024-01-09T16:30:00-06:00',
      '2024-01-15T12:00:00-06:00',
    ];
    const json = runCli(['calendar', ...times, '--instrument', 'ES', '--json']);
    expect(json.stderr).toBe('');
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0], "New Year's Day 2024 (a Monday) has no session: the line names it").toEqual({
      time_ms: Date.parse('2024-01-01T16:00:00Z'),
      instrument: 'ES',
      trade_date: '2024-01-02',
      is_open: false,
      session_open_ms: Date.parse('2024-01-01T23:00:00Z'),
      session_close_ms: Date.parse('2024-01-02T22:00:00Z'),
      holiday: "New Year's Day",
    });
    expect(lines[1], 'a plain weekend names no holiday').not.toHaveProperty('holiday');
    expect(lines[2], 'the daily halt names no holiday').not.toHaveProperty('holiday');
    expect(lines[3].holiday, 'ES halts at 12:00 CT on MLK Day 2024').toBe('Martin Luther King Jr. Day');
    const notes = runCli(['calendar', ...times])
      .stdout.trim()
      .split('\n')
      .slice(1)
      .map((row) => row.split(/ {2,}/).slice(6).join(''));
    expect(notes).toEqual([
      "holiday: New Year's Day (no session 2024-01-01)",
      'weekend',
      'daily halt 16:00–17:00 CT',
      'early close: Martin Luther King Jr. Day',
    ]);
  });

  it('warns on stderr for a time past the years of the holiday data, and still answers', () => {
    const { status, stdout, stderr } = runCli([
      'calendar',
      '2026-03-09T10:00:00-05:00',
      '2028-07-03T10:00:00-05:00',
      '--json',
    ]);
    expect(status).toBe(0);
    expect(stdout.trim().split('\n'), 'both times answered').toHaveLength(2);
    expect(stderr).toBe(
      'propsim calendar: warning: the holiday data covers 2020–2027; argument 2 (trade date 2028-07-03) is outside it, where holidays are unknown and every weekday shows a normal session (pass --holidays FILE with those years)\n',
    );
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
    for (const command of ['replay', 'backtest', 'report', 'serve', 'calendar'])
      expect(stdout).toContain(`propsim ${command}`);
  });

  it('answers a mistyped command with the command meant, exit 2 and the list of commands', () => {
    const { status, stdout, stderr } = runCli(['replya']);
    expect(status, 'invalid input').toBe(2);
    expect(stderr, 'the suggestion').toContain('Did you mean replay?');
    expect(stdout + stderr, 'with the list').toContain('propsim serve');
  });

  it('refuses an unknown serve flag with exit 2 before starting anything', () => {
    const { status, stderr } = runCli(['serve', '--bogus']);
    expect(status).toBe(2);
    expect(stderr).toContain('Unknown argument');
    expect(stderr).not.toContain('listening on');
  });

  it('exits 2 on an unknown option', () => {
    const { status, stderr } = runCli(['calendar', '--bogus']);
    expect(status).toBe(2);
    expect(stderr).toContain('Unknown argument');
  });
});
