// The contract a synthetic trader trades on a trade date, one rule per product group (docs/market-data.md#contract-rolls).
// Every date below is worked out by hand from a 2024 calendar.
import { describe, expect, it } from 'vitest';
import { contractMonths, contractOn, rollDate } from '../../src/core/contract-rolls.js';
import { allInstruments } from '../../src/core/instruments.js';

describe('contract rolls', () => {
  it('equity index: the Thursday eight days before the third-Friday expiry of the quarterly contract', () => {
    // March 2024 starts on a Friday: Fridays 1, 8, 15, so ESH4 expires Friday 15; 15 - 8 = Thursday 7.
    expect(rollDate('equity_index', 2024, 3)).toBe('2024-03-07');
    expect(contractOn('ES', '2024-03-06')).toBe('ESH4');
    expect(contractOn('ES', '2024-03-07')).toBe('ESM4');
    expect(contractOn('NQ', '2024-03-07')).toBe('NQM4');
    expect(contractOn('MES', '2024-01-02')).toBe('MESH4');
    // December 2024 starts on a Sunday: Fridays 6, 13, 20; 20 - 8 = Thursday 12, and the next contract is March 2025.
    expect(contractOn('ES', '2024-12-11')).toBe('ESZ4');
    expect(contractOn('ES', '2024-12-12')).toBe('ESH5');
  });

  it('fx: the second Wednesday, a week before the third-Wednesday settlement', () => {
    // March 2024's Wednesdays: 6, 13, 20. 6EH4 settles on the 20th (last trade Monday 18); the roll is the 13th.
    expect(rollDate('fx', 2024, 3)).toBe('2024-03-13');
    expect(contractOn('6E', '2024-01-15')).toBe('6EH4');
    expect(contractOn('6E', '2024-03-12')).toBe('6EH4');
    expect(contractOn('6E', '2024-03-13')).toBe('6EM4');
  });

  it('interest rates: the third-to-last weekday of the month before the contract month', () => {
    // February 2024 ends Thursday 29: weekdays from the end 29, 28, 27. First intention day of ZNH4 is the 28th
    // (two business days before Friday 1 March); the roll is the weekday before it, Tuesday 27.
    expect(rollDate('interest_rates', 2024, 3)).toBe('2024-02-27');
    expect(contractOn('ZN', '2024-02-26')).toBe('ZNH4');
    expect(contractOn('ZB', '2024-02-27')).toBe('ZBM4');
  });

  it('metals: the third-to-last weekday of the month before the contract month, in the root’s own months', () => {
    // GC lists G J M Q V Z. January 2024 ends Wednesday 31: 31, 30, 29, so GCG4 rolls Monday 29 to GCJ4.
    expect(contractOn('GC', '2024-01-26')).toBe('GCG4');
    expect(contractOn('GC', '2024-01-29')).toBe('GCJ4');
    // March 2024 ends on a Sunday: Friday 29, Thursday 28, Wednesday 27 (Good Friday is not counted out).
    expect(contractOn('MGC', '2024-03-26')).toBe('MGCJ4');
    expect(contractOn('MGC', '2024-03-27')).toBe('MGCM4');
    // SI lists H K N U Z: SIH4 rolls on 27 February like ZNH4, to May (K).
    expect(contractOn('SI', '2024-02-26')).toBe('SIH4');
    expect(contractOn('SI', '2024-02-27')).toBe('SIK4');
  });

  it('energy: every month, rolling on the 15th of the month before (the next weekday when it is a weekend)', () => {
    // CLH4 expires around 20 February; 15 February 2024 is a Thursday.
    expect(contractOn('CL', '2024-02-14')).toBe('CLH4');
    expect(contractOn('CL', '2024-02-15')).toBe('CLJ4');
    // 15 June 2024 is a Saturday: CLN4 rolls on Monday 17.
    expect(rollDate('energy', 2024, 7)).toBe('2024-06-17');
    expect(contractOn('NG', '2024-06-14')).toBe('NGN4');
    expect(contractOn('MCL', '2024-06-17')).toBe('MCLQ4');
  });

  it('every known root has listed months and a contract on any date', () => {
    for (const { root } of allInstruments()) {
      expect(contractMonths(root).length).toBeGreaterThan(0);
      expect(contractOn(root, '2024-12-31')).toMatch(new RegExp(`^${root}[FGHJKMNQUVXZ]5$`));
    }
  });
});
