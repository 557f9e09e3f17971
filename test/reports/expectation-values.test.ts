// The replay report's expected and actual cells (src/reports/expectation-values.ts): money as figures, the expected
// written with the actual's places ("48000" beside "48000.00" read as two values), other values as JSON.
import { describe, expect, it } from 'vitest';
import { shownExpectation } from '../../src/reports/expectation-values.js';

describe('shownExpectation', () => {
  it('a decimal expected with fewer places than the actual gets its zeros: 48000 -> 48000.00', () => {
    expect(shownExpectation('48000', '48000.00')).toEqual(['48000.00', '48000.00']);
    expect(shownExpectation('-1000', '-1000.00')).toEqual(['-1000.00', '-1000.00']);
    expect(shownExpectation('1.0984', '1.09840')).toEqual(['1.09840', '1.09840']);
    // A failed check: still the same places, so that the difference is the digits.
    expect(shownExpectation('48000', '47999.50')).toEqual(['48000.00', '47999.50']);
  });

  it('an expected written with more places than the actual keeps them; nothing is rounded', () => {
    expect(shownExpectation('48000.005', '48000.00')).toEqual(['48000.005', '48000.00']);
  });

  it('numbers, booleans, null and other strings as JSON: "true" and true stay apart', () => {
    expect(shownExpectation(0, 0)).toEqual(['0', '0']);
    expect(shownExpectation(true, true)).toEqual(['true', 'true']);
    expect(shownExpectation(null, '0.00')).toEqual(['null', '0.00']);
    expect(shownExpectation('FILLED', 'FILLED')).toEqual(['"FILLED"', '"FILLED"']);
    expect(shownExpectation('48000', null)).toEqual(['48000', 'null']);
  });
});
