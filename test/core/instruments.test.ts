import { describe, expect, it } from 'vitest';
import { allInstruments, instrumentByRoot, parseSymbol, UnknownInstrumentError } from '../../src/core/instruments.js';

describe('instrument catalog', () => {
  it.each([
    ['ES', '0.25', '12.50', '50', 'equity_index'],
    ['MES', '0.25', '1.25', '5', 'equity_index'],
    ['NQ', '0.25', '5.00', '20', 'equity_index'],
    ['MNQ', '0.25', '0.50', '2', 'equity_index'],
    ['YM', '1', '5.00', '5', 'equity_index'],
    ['MYM', '1', '0.50', '0.5', 'equity_index'],
    ['RTY', '0.10', '5.00', '50', 'equity_index'],
    ['M2K', '0.10', '0.50', '5', 'equity_index'],
    ['CL', '0.01', '10.00', '1000', 'energy'],
    ['MCL', '0.01', '1.00', '100', 'energy'],
    ['GC', '0.10', '10.00', '100', 'metals'],
    ['MGC', '0.10', '1.00', '10', 'metals'],
    ['ZN', '0.015625', '15.625', '1000', 'interest_rates'],
    ['6E', '0.00005', '6.25', '125000', 'fx'],
    // CME's E-micro EUR/USD: 12,500 euros, 0.0001 USD per EUR = $1.25; 1.25 / 0.0001 = $12,500 a point.
    ['M6E', '0.0001', '1.25', '12500', 'fx'],
  ])('%s: tick %s, tick value $%s, point value $%s, %s', (root, tick, tickValue, pointValue, family) => {
    const spec = instrumentByRoot(root);
    expect(spec.tickSize).toBe(tick);
    expect(spec.tickValue).toBe(tickValue);
    expect(spec.pointValue).toBe(pointValue);
    expect(spec.family).toBe(family);
    expect(spec.sessionTemplate).toBe('cme_globex');
  });

  it("a micro's mini: MES ES, MNQ NQ, MYM YM, M2K RTY, M6E 6E, MCL CL, MGC GC; a full-size contract has none", () => {
    const minis = Object.fromEntries(
      allInstruments().flatMap((spec) => (spec.miniRoot === undefined ? [] : [[spec.root, spec.miniRoot]])),
    );
    expect(minis).toEqual({ MES: 'ES', MNQ: 'NQ', MYM: 'YM', M2K: 'RTY', M6E: '6E', MCL: 'CL', MGC: 'GC' });
    // Each is a tenth of its mini: the point values divide by 10 (MES $5 of ES $50, M6E $12,500 of 6E $125,000).
    for (const [micro, mini] of Object.entries(minis))
      expect(Number(instrumentByRoot(mini).pointValue) / Number(instrumentByRoot(micro).pointValue), micro).toBe(10);
    expect(parseSymbol('M6EH4')).toMatchObject({ root: 'M6E', contract: { month: 3, year: 2024 } });
  });

  it('keeps every tick value as whole mills so P&L stays integer (ZN $15.625 = 15625 mills)', () => {
    expect(instrumentByRoot('ZN').tickValueMills).toBe(15_625);
    expect(instrumentByRoot('6E').priceDecimals).toBe(5);
    for (const spec of allInstruments()) expect(Number.isInteger(spec.tickValueMills)).toBe(true);
  });
});

describe('GLOBEX symbol parsing', () => {
  it('reads root, month code and a one- or two-digit year', () => {
    expect(parseSymbol('ESM6')).toMatchObject({ root: 'ES', contract: { month: 6, year: 2026 } });
    expect(parseSymbol('ESM26')).toMatchObject({ root: 'ES', contract: { month: 6, year: 2026 } });
    expect(parseSymbol('6EH4')).toMatchObject({ root: '6E', contract: { month: 3, year: 2024 } });
    expect(parseSymbol('M2KZ6')).toMatchObject({ root: 'M2K', contract: { month: 12, year: 2026 } });
    expect(parseSymbol('MNQU6')).toMatchObject({ root: 'MNQ', contract: { month: 9, year: 2026 } });
    expect(parseSymbol('ESZ19')).toMatchObject({ root: 'ES', contract: { month: 12, year: 2019 } });
    expect(parseSymbol('MGCG7')).toMatchObject({ root: 'MGC', contract: { month: 2, year: 2027 } });
  });

  it('accepts a bare root for data without a contract month', () => {
    const parsed = parseSymbol('ES');
    expect(parsed.root).toBe('ES');
    expect(parsed.contract).toBeUndefined();
    expect(parseSymbol('6E').spec.family).toBe('fx');
  });

  it('names an unknown root', () => {
    expect(() => parseSymbol('XXM6')).toThrowError(UnknownInstrumentError);
    expect(() => parseSymbol('XXM6')).toThrowError(/instrument "XXM6": unknown root "XX"; known roots: ES /);
    expect(() => parseSymbol('FOO')).toThrowError(/instrument "FOO": unknown root/);
  });

  it('names an unknown month code and lists the valid ones', () => {
    expect(() => parseSymbol('ESA6')).toThrowError(
      'instrument "ESA6": unknown month code "A"; expected one of F G H J K M N Q U V X Z',
    );
  });

  it('refuses a symbol that is only a year', () => {
    expect(() => parseSymbol('26')).toThrowError(UnknownInstrumentError);
    expect(() => parseSymbol('')).toThrowError(UnknownInstrumentError);
  });
});
