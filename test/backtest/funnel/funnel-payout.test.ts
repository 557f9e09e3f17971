// The payout rules of a funded account (docs/backtesting.md#the-funnel): each condition, the largest amount, the
// split tiers, and the reset draws. Money in cents; every expected number is worked out in a comment.
import { describe, expect, it } from 'vitest';
import type { PayoutRules } from '../../../src/backtest/config/funnel-config.js';
import { payoutDue, traderShareCents } from '../../../src/backtest/funnel/funnel-payout.js';
import { ResetDraws } from '../../../src/backtest/funnel/trader-funnel.js';

/** The rules: 5 days, 5 winning days of $200+, buffer $2,000, half, cap $5,000, 30 %, 1.0 to $10,000 then 0.9. */
const EXAMPLE_PAYOUT: PayoutRules = {
  minDays: 5,
  winningDayCents: 20_000,
  minWinningDays: 5,
  bufferCents: 200_000,
  maxFraction: '0.5',
  capCents: 500_000,
  consistencyPct: '30',
  split: [{ upToCents: 1_000_000, trader: '1.0' }, { trader: '0.9' }],
  request: 'auto',
};
const START = 5_000_000;
/** Five winning days of $1,000 (100,000 cents each): profit $5,000, best day 20 % of it. */
const FIVE_DAYS = [100_000, 100_000, 100_000, 100_000, 100_000];

describe('payout conditions', () => {
  it('min_days: fewer trade dates with a fill than min_days pays nothing', () => {
    // 4 days of $1,250: profit 5,000 but 4 < 5.
    expect(
      payoutDue(EXAMPLE_PAYOUT, {
        balanceCents: START + 500_000,
        startingBalanceCents: START,
        dayPnlCents: [125_000, 125_000, 125_000, 125_000],
      }),
    ).toBe(0);
  });

  it('winning_day and min_winning_days: a day below winning_day does not count', () => {
    // 6 days, one of $199.99 (< $200): 5 winning days is enough (profit 4,199.99 → min(5,000, 2,099.99, 2,199.99));
    // with two such days only 4 win.
    const six = [...FIVE_DAYS.slice(0, 4), 19_999, 100_000];
    expect(
      payoutDue(EXAMPLE_PAYOUT, { balanceCents: START + 419_999, startingBalanceCents: START, dayPnlCents: six }),
    ).toBe(209_999);
    const twoSmall = [...FIVE_DAYS.slice(0, 3), 19_999, 19_999, 100_000];
    expect(
      payoutDue(EXAMPLE_PAYOUT, { balanceCents: START + 339_998, startingBalanceCents: START, dayPnlCents: twoSmall }),
    ).toBe(0);
  });

  it('consistency_pct: the largest winning day at most pct % of the profit since the last payout', () => {
    // Days 1,500 + 4 × 875 = 5,000: 1,500 × 100 = 150,000 <= 30 × 5,000 = 150,000: holds (inclusive),
    // and pays min(5,000, 0.5 × 5,000, 5,000 − 2,000) = 2,500.
    const atBound = [150_000, 87_500, 87_500, 87_500, 87_500];
    expect(
      payoutDue(EXAMPLE_PAYOUT, { balanceCents: START + 500_000, startingBalanceCents: START, dayPnlCents: atBound }),
    ).toBe(250_000);
    // 1,501 + 4 × 874.75 = 5,000: 1,501 × 100 = 150,100 > 150,000: no payout.
    const above = [150_100, 87_475, 87_475, 87_475, 87_475];
    expect(
      payoutDue(EXAMPLE_PAYOUT, { balanceCents: START + 500_000, startingBalanceCents: START, dayPnlCents: above }),
    ).toBe(0);
  });

  it('buffer: the balance stays at or above starting + buffer, so a profit up to the buffer pays nothing', () => {
    // Profit 2,000 = buffer: balance − (starting + buffer) = 0.
    const days = [40_000, 40_000, 40_000, 40_000, 40_000];
    const { consistencyPct: _unused, ...rules } = EXAMPLE_PAYOUT;
    expect(payoutDue(rules, { balanceCents: START + 200_000, startingBalanceCents: START, dayPnlCents: days })).toBe(0);
  });
});

describe('the largest amount: min(cap, max_fraction × (balance − starting), balance − (starting + buffer))', () => {
  const due = (profitCents: number) =>
    payoutDue(EXAMPLE_PAYOUT, {
      balanceCents: START + profitCents,
      startingBalanceCents: START,
      dayPnlCents: FIVE_DAYS,
    });

  it('the buffer binds: profit 3,000 → min(5,000, 1,500, 1,000) = 1,000', () => {
    expect(due(300_000)).toBe(100_000);
  });

  it('the fraction binds: profit 5,000 → min(5,000, 2,500, 3,000) = 2,500', () => {
    expect(due(500_000)).toBe(250_000);
  });

  it('the cap binds: profit 14,000 → min(5,000, 7,000, 12,000) = 5,000', () => {
    expect(due(1_400_000)).toBe(500_000);
  });

  it('the fraction is rounded down to the cent: 0.5 × 4,000.01 = 2,000.005 → 2,000.00', () => {
    expect(due(400_001)).toBe(200_000);
  });
});

describe('split tiers: the trader share by cumulative withdrawals', () => {
  it('inside the first tier the trader gets all of it: 5,000 of the first 10,000 at 1.0', () => {
    expect(traderShareCents(EXAMPLE_PAYOUT.split, 0, 500_000)).toBe(500_000);
  });

  it('a withdrawal across the tier boundary is split: 8,000 + 5,000 → 2,000 × 1.0 + 3,000 × 0.9 = 4,700', () => {
    expect(traderShareCents(EXAMPLE_PAYOUT.split, 800_000, 500_000)).toBe(470_000);
  });

  it('beyond the last boundary: 0.9 × 3,333.33 = 2,999.997 → 3,000.00 (half-even to the cent)', () => {
    expect(traderShareCents(EXAMPLE_PAYOUT.split, 1_200_000, 333_333)).toBe(300_000);
  });
});

describe('reset draws (seeded per trader)', () => {
  it('rate 0 never resets and rate 1 always does', () => {
    const draws = new ResetDraws(7);
    expect([1, 2, 3].map(() => draws.resets('0'))).toEqual([false, false, false]);
    expect([1, 2, 3].map(() => draws.resets('1'))).toEqual([true, true, true]);
  });

  it('rate 0.5 resets about half of the traders (10,000 seeds: within 4 standard deviations, 0.5 ± 0.02)', () => {
    let resets = 0;
    for (let seed = 0; seed < 10_000; seed++) if (new ResetDraws(seed).resets('0.5')) resets++;
    expect(resets / 10_000).toBeGreaterThan(0.48);
    expect(resets / 10_000).toBeLessThan(0.52);
  });

  it('a trader draws the same whatever else was drawn before it (independent of cell order)', () => {
    const alone = new ResetDraws(42);
    const first = [1, 2, 3, 4].map(() => alone.resets('0.5'));
    for (let seed = 0; seed < 50; seed++) new ResetDraws(seed).resets('0.5');
    const again = new ResetDraws(42);
    expect([1, 2, 3, 4].map(() => again.resets('0.5'))).toEqual(first);
  });
});
