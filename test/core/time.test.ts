import { describe, expect, it } from 'vitest';
import { parseDurationMs, parseTimeMs, TimeInputError } from '../../src/core/time.js';

describe('time inputs', () => {
  it('reads ISO 8601 with an offset or Z, and Unix ms', () => {
    expect(parseTimeMs('2026-03-02T17:00:00-06:00', 't')).toBe(Date.UTC(2026, 2, 2, 23));
    expect(parseTimeMs('2026-03-02T23:00:00Z', 't')).toBe(Date.UTC(2026, 2, 2, 23));
    expect(parseTimeMs('2026-03-02T23:00:00.250Z', 't')).toBe(Date.UTC(2026, 2, 2, 23) + 250);
    expect(parseTimeMs('2026-03-02T23:00Z', 't')).toBe(Date.UTC(2026, 2, 2, 23));
    expect(parseTimeMs('1772492400000', 't')).toBe(1_772_492_400_000);
    expect(parseTimeMs(1_772_492_400_000, 't')).toBe(1_772_492_400_000);
  });

  it.each([
    '2026-03-02T17:00:00',
    '2026-03-02',
    'yesterday',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '1.5',
    '',
  ])('refuses %j, saying what it expected', (value) => {
    expect(() => parseTimeMs(value, 'steps[3].at')).toThrowError(TimeInputError);
    expect(() => parseTimeMs(value, 'steps[3].at')).toThrowError(
      /steps\[3\]\.at: expected an ISO 8601 time with an offset or Z/,
    );
  });

  it('reads durations', () => {
    expect(parseDurationMs('250ms', 'd')).toBe(250);
    expect(parseDurationMs('15s', 'd')).toBe(15_000);
    expect(parseDurationMs('30m', 'd')).toBe(1_800_000);
    expect(parseDurationMs('2h', 'd')).toBe(7_200_000);
    expect(parseDurationMs('1d', 'd')).toBe(86_400_000);
    expect(() => parseDurationMs('5 min', 'advance')).toThrowError(/advance: expected a duration like 250ms/);
    expect(() => parseDurationMs(30, 'advance')).toThrowError(TimeInputError);
  });
});
