// Cumulative incidence of pass and fail as competing risks (docs/backtesting.md#outcomes-in-time): an example
// worked by hand with censoring in the middle, then the rules that must hold for any population.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cumulativeIncidence, type FirstEvent, type Followed } from '../../../src/backtest/stats/incidence.js';
import { wilsonInterval } from '../../../src/backtest/stats/statistics.js';

function population(...groups: [event: FirstEvent, day: number, count: number][]): Followed[] {
  return groups.flatMap(([event, day, count]) => Array.from({ length: count }, () => ({ event, day })));
}

const followedPopulation = fc.integer({ min: 1, max: 12 }).chain((days) =>
  fc.record({
    days: fc.constant(days),
    subjects: fc.array(
      fc.record({
        event: fc.constantFrom<FirstEvent>('pass', 'fail', 'censored'),
        day: fc.integer({ min: 1, max: days }),
      }),
      { maxLength: 60 },
    ),
  }),
);

describe('cumulative incidence of pass and fail (Aalen–Johansen)', () => {
  it('10 subjects over 3 days, 2 censored on day 2 and 2 at the end: every number worked by hand', () => {
    // day 1: 2 pass, 1 fail;  day 2: 1 pass, then 2 censored;  day 3: 1 pass, 1 fail, then 2 censored (the end).
    // n_1 = 10, d_1 = 3;  n_2 = 10 − 3 = 7, d_2 = 1;  n_3 = 7 − 1 − 2 = 4, d_3 = 2.
    // S(0) = 1, S(1) = 7/10, S(2) = 7/10 · 6/7 = 3/5, S(3) = 3/5 · 2/4 = 3/10.
    // F_pass: 1 · 2/10 = 1/5;  + 7/10 · 1/7 = 3/10;  + 3/5 · 1/4 = 9/20.
    // F_fail: 1 · 1/10 = 1/10;  + 0 = 1/10;  + 3/5 · 1/4 = 1/4.   Day 3: 9/20 + 1/4 + 3/10 = 1.
    const points = cumulativeIncidence(
      population(
        ['pass', 1, 2],
        ['fail', 1, 1],
        ['pass', 2, 1],
        ['censored', 2, 2],
        ['pass', 3, 1],
        ['fail', 3, 1],
        ['censored', 3, 2],
      ),
      3,
    );
    expect(points.map((p) => p.day)).toEqual([1, 2, 3]);
    expect(points.map((p) => p.atRisk)).toEqual([10, 7, 4]);
    const [day1, day2, day3] = [points[0]!, points[1]!, points[2]!];

    // Days 1 and 2: nobody censored before, so Var = F(1 − F)/10 and n_eff = 10.
    // Var F_pass(1) = S(0)² · 2 · 8 / 10³ = 2/125 = 0.016 = (1/5)(4/5)/10.
    // Var F_fail(1) = 1 · 1 · 9 / 10³ = 9/1000 = (1/10)(9/10)/10.
    // Var F_pass(2), j = 1: (3/10 − 1/5)² · 3/(10 · 7) = 3/7000;  + 2/125;  − 2 · 1/10 · 1 · 2/100 = −1/250;
    //   j = 2: (0)² · …  + (7/10)² · 1 · 6 / 7³ = 3/350;  − 0.   Sum 3/7000 + 2/125 − 1/250 + 3/350 = 21/1000.
    // Var F_fail(2) = 9/1000 (day 2 has no failure and F_fail(2) − F_fail(j) = 0).
    // Wilson with z = 1.959964, z² = 3.841459, n = 10: denominator 1 + z²/10 = 1.384146.
    //   p = 1/5: centre (0.2 + 0.192073)/1.384146 = 0.283260, half 1.959964 · √(0.016 + 0.009604)/1.384146 = 0.226578.
    //   p = 1/10: centre 0.211013, half 0.193137.   p = 3/10: centre 0.355507, half 0.247715.
    expect(day1.pass.value).toBeCloseTo(0.2, 12);
    expect(day1.pass.variance).toBeCloseTo(0.016, 12);
    expect(day1.pass.low).toBeCloseTo(0.056682151, 6);
    expect(day1.pass.high).toBeCloseTo(0.509837528, 6);
    expect(day1.fail.value).toBeCloseTo(0.1, 12);
    expect(day1.fail.variance).toBeCloseTo(0.009, 12);
    expect(day1.fail.low).toBeCloseTo(0.017876213, 6);
    expect(day1.fail.high).toBeCloseTo(0.404150027, 6);
    expect(day2.pass.value).toBeCloseTo(0.3, 12);
    expect(day2.pass.variance).toBeCloseTo(0.021, 12);
    expect(day2.pass.low).toBeCloseTo(0.107791267, 6);
    expect(day2.pass.high).toBeCloseTo(0.603221853, 6);
    expect(day2.fail).toEqual(day1.fail);

    // Day 3: 2 censored before it, so n_eff = F(1 − F)/Var.
    // Var F_pass(3): j = 1: (9/20 − 1/5)² · 3/70 = 3/1120;  + 2/125;  − 2 · 1/4 · 2/100 = −1/100.
    //   j = 2: (9/20 − 3/10)² · 1/42 = 3/5600;  + 3/350;  − 2 · 3/20 · 7/10 · 1/49 = −3/700.
    //   j = 3: 0 + (3/5)² · 1 · 3 / 4³ = 27/1600;  − 0.
    //   Sum = 243/8000 = 0.030375; n_eff = (9/20)(11/20)/(243/8000) = 220/27 = 8.148148.
    //   Wilson: denominator 1 + z²·27/220 = 1.471452, centre 0.466020, half 0.282056.
    // Var F_fail(3): j = 1: (1/4 − 1/10)² · 3/70 = 27/28000;  + 9/1000;  − 2 · 3/20 · 1/100 = −3/1000.
    //   j = 2: (3/20)² · 1/42 = 3/5600;  + 0 − 0.   j = 3: 0 + 27/1600 − 0.
    //   Sum = 39/1600 = 0.024375; n_eff = (1/4)(3/4)/(39/1600) = 100/13 = 7.692308.
    //   Wilson: denominator 1 + z²·13/100 = 1.499390, centre 0.333265, half 0.263405.
    expect(day3.pass.value).toBeCloseTo(0.45, 12);
    expect(day3.pass.variance).toBeCloseTo(0.030375, 12);
    expect(day3.pass.low).toBeCloseTo(0.183964273, 6);
    expect(day3.pass.high).toBeCloseTo(0.748075633, 6);
    expect(day3.fail.value).toBeCloseTo(0.25, 12);
    expect(day3.fail.variance).toBeCloseTo(0.024375, 12);
    expect(day3.fail.low).toBeCloseTo(0.069860367, 6);
    expect(day3.fail.high).toBeCloseTo(0.59667061, 6);
  });

  it('without censoring before the end, F_k(t) is the share with event k by day t and the interval is wilsonInterval(count, N)', () => {
    fc.assert(
      fc.property(followedPopulation, ({ days, subjects }) => {
        const followedToEnd = subjects.map((s) => (s.event === 'censored' ? { ...s, day: days } : s));
        const total = followedToEnd.length;
        for (const point of cumulativeIncidence(followedToEnd, days)) {
          expect(point.atRisk).toBe(followedToEnd.filter((s) => s.event === 'censored' || s.day >= point.day).length);
          for (const kind of ['pass', 'fail'] as const) {
            const count = followedToEnd.filter((s) => s.event === kind && s.day <= point.day).length;
            const share = total === 0 ? 0 : count / total;
            const { value, low, high, variance } = point[kind];
            expect(value).toBe(share);
            expect({ low, high }).toEqual(wilsonInterval(count, total));
            // The delta-method variance reduces to the binomial's F(1 − F)/N.
            if (total > 0) expect(Math.abs(variance - (share * (1 - share)) / total)).toBeLessThan(1e-12);
          }
        }
      }),
    );
  });

  it('F_pass + F_fail + S = 1 every day, with S the product-limit Π (1 − d_j/n_j), and each F_k is Σ S(j−1) · d_kj/n_j', () => {
    fc.assert(
      fc.property(followedPopulation, ({ days, subjects }) => {
        let survival = 1;
        const productLimit = { pass: 0, fail: 0 };
        for (const point of cumulativeIncidence(subjects, days)) {
          const n = subjects.filter((s) => s.day >= point.day).length;
          const onDay = (kind: FirstEvent) => subjects.filter((s) => s.event === kind && s.day === point.day).length;
          expect(point.atRisk).toBe(n);
          if (n > 0) {
            productLimit.pass += (survival * onDay('pass')) / n;
            productLimit.fail += (survival * onDay('fail')) / n;
            survival *= 1 - (onDay('pass') + onDay('fail')) / n;
          }
          expect(Math.abs(point.pass.value + point.fail.value + survival - 1)).toBeLessThan(1e-12);
          for (const kind of ['pass', 'fail'] as const) {
            const { value, low, high } = point[kind];
            expect(Math.abs(value - productLimit[kind])).toBeLessThan(1e-12);
            expect(0 <= low && low <= value && value <= high && high <= 1).toBe(true);
          }
        }
      }),
    );
  });

  it('an incidence of 0 or 1 takes the subjects not censored before the day as its sample size', () => {
    // One censored on day 1, three pass on day 2: F_pass(2) = S(1) · 3/3 = 1, Var 0; F_fail(2) = 0. n = 4 − 1 = 3.
    const [, day2] = cumulativeIncidence(population(['censored', 1, 1], ['pass', 2, 3]), 2);
    expect(day2!.pass).toEqual({ value: 1, variance: 0, ...wilsonInterval(3, 3) });
    expect(day2!.fail).toEqual({ value: 0, variance: 0, ...wilsonInterval(0, 3) });
  });

  it('a day with nobody at risk keeps the previous day’s estimates and intervals', () => {
    // Day 1: 1 pass, 1 fail, 1 censored; nobody is left for days 2 and 3.
    const points = cumulativeIncidence(population(['pass', 1, 1], ['fail', 1, 1], ['censored', 1, 1]), 3);
    expect(points.map((p) => p.atRisk)).toEqual([3, 0, 0]);
    expect(points[0]!.pass.value).toBeCloseTo(1 / 3, 12);
    for (const later of points.slice(1)) {
      expect(later.pass).toEqual(points[0]!.pass);
      expect(later.fail).toEqual(points[0]!.fail);
    }
  });

  it('no subjects: every day has 0 at risk and incidences of 0 with the interval [0, 0]', () => {
    const nothing = { value: 0, low: 0, high: 0, variance: 0 };
    expect(cumulativeIncidence([], 2)).toEqual([
      { day: 1, atRisk: 0, pass: nothing, fail: nothing },
      { day: 2, atRisk: 0, pass: nothing, fail: nothing },
    ]);
  });

  it('a day that is not a whole trade date in 1..days throws a RangeError naming the subject', () => {
    const ok: Followed = { event: 'pass', day: 1 };
    expect(() => cumulativeIncidence([ok, { event: 'fail', day: 0 }], 3)).toThrow(
      new RangeError('subject 1: day 0 is not a trade date in 1..3'),
    );
    expect(() => cumulativeIncidence([ok, ok, { event: 'censored', day: 4 }], 3)).toThrow(
      new RangeError('subject 2: day 4 is not a trade date in 1..3'),
    );
    expect(() => cumulativeIncidence([{ event: 'pass', day: 1.5 }], 3)).toThrow(
      new RangeError('subject 0: day 1.5 is not a trade date in 1..3'),
    );
    expect(() => cumulativeIncidence([ok], 2.5)).toThrow(RangeError);
  });
});
