// Floor arithmetic (docs/risk-rules.md#equity-and-the-max-loss-floor, docs/risk-rules.md#daily-loss), hand-computed
// in dollars (the code works in cents).
import { describe, expect, it } from 'vitest';
import {
  breachAt,
  ceilingCents,
  onAdjustment,
  onBalance,
  onEquityMark,
  onSessionRoll,
  openFloors,
  reanchorDailyLoss,
  setDailyLossTrigger,
  setMaxDrawdownLimit,
} from '../../../src/core/accounts/floors.js';

const $ = (dollars: number) => Math.round(dollars * 100);

describe('docs/risk-rules.md#drawdown-modes', () => {
  it('static: trigger = starting balance - value, fixed; highest_realized_balance reports the highest balance', () => {
    const f = openFloors({
      mode: 'static',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
      maxDrawdownLimitCents: $(0),
    });
    expect(f.maxLossTriggerCents, '50,000 - 2,000').toBe($(48_000));
    expect(ceilingCents(f), 'a cap is ignored by static').toBeUndefined();
    onBalance(f, $(51_500));
    onEquityMark(f, $(53_000));
    expect(f.maxLossTriggerCents).toBe($(48_000));
    expect(f.peakCents).toBe($(51_500));
  });

  it('realtime_balance: the peak follows balance highs; the trigger trails it by the value', () => {
    const f = openFloors({
      mode: 'realtime_balance',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
    });
    onEquityMark(f, $(52_000));
    expect(f.maxLossTriggerCents, 'equity highs do not move a balance floor').toBe($(48_000));
    onBalance(f, $(50_750));
    expect(f.maxLossTriggerCents, '50,750 - 2,000').toBe($(48_750));
    onBalance(f, $(50_100));
    expect(f.maxLossTriggerCents, 'the trigger never falls').toBe($(48_750));
    expect(f.peakCents).toBe($(50_750));
  });

  it('realtime_equity: the peak follows equity on every mark, unrealized included', () => {
    const f = openFloors({
      mode: 'realtime_equity',
      startingBalanceCents: $(100_000),
      maxDrawdownValueCents: $(3_000),
    });
    onEquityMark(f, $(101_250.5));
    expect(f.maxLossTriggerCents, '101,250.50 - 3,000').toBe($(98_250.5));
    onEquityMark(f, $(99_000));
    expect(f.maxLossTriggerCents).toBe($(98_250.5));
  });

  it('eod_balance: the peak is taken from end-of-session equity at the roll only', () => {
    const f = openFloors({ mode: 'eod_balance', startingBalanceCents: $(50_000), maxDrawdownValueCents: $(2_000) });
    onEquityMark(f, $(53_000));
    onBalance(f, $(52_000));
    expect(f.maxLossTriggerCents, 'intraday highs do not count').toBe($(48_000));
    onSessionRoll(f, $(52_000), $(51_200));
    expect(f.maxLossTriggerCents, '51,200 equity at the close - 2,000').toBe($(49_200));
  });

  it('the ceiling caps a trailing trigger at starting balance + max_drawdown_limit', () => {
    const f = openFloors({
      mode: 'realtime_balance',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
      maxDrawdownLimitCents: $(100),
    });
    expect(ceilingCents(f), '50,000 + 100').toBe($(50_100));
    onBalance(f, $(51_900));
    expect(f.maxLossTriggerCents, 'min(51,900 - 2,000, 50,100)').toBe($(49_900));
    onBalance(f, $(53_000));
    expect(f.maxLossTriggerCents, 'min(51,000, 50,100): frozen at the ceiling').toBe($(50_100));
  });

  it('a cap of "0" freezes the trigger at the starting balance', () => {
    const f = openFloors({
      mode: 'eod_balance',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
      maxDrawdownLimitCents: 0,
    });
    onSessionRoll(f, $(54_000), $(54_000));
    expect(f.maxLossTriggerCents).toBe($(50_000));
  });
});

describe('docs/risk-rules.md#breach-on-touch: breach on touch, max loss first', () => {
  it('equity equal to a trigger breaches it; max loss wins when both are crossed', () => {
    const f = openFloors({
      mode: 'static',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
      dailyLossValueCents: $(1_000),
    });
    expect(breachAt(f, $(49_000.01))).toBeUndefined();
    expect(breachAt(f, $(49_000)), 'touching the daily floor').toBe('daily_loss');
    expect(breachAt(f, $(48_000)), 'below both: max loss wins').toBe('max_loss');
  });
});

describe('docs/risk-rules.md#daily-loss', () => {
  it('is rebuilt at each roll from the balance', () => {
    const f = openFloors({
      mode: 'eod_balance',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
      dailyLossValueCents: $(1_000),
    });
    expect(f.dailyLossTriggerCents, 'at provisioning: 50,000 - 1,000').toBe($(49_000));
    onSessionRoll(f, $(50_600), $(50_400));
    expect([f.startOfDayBalanceCents, f.dailyLossTriggerCents]).toEqual([$(50_600), $(49_600)]);
  });

  it('setDailyLossTrigger replaces the trigger and leaves the anchor', () => {
    const f = openFloors({
      mode: 'static',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
      dailyLossValueCents: $(1_000),
    });
    expect(setDailyLossTrigger(f, $(49_500))).toEqual({ previousCents: $(49_000) });
    expect([f.dailyLossTriggerCents, f.startOfDayBalanceCents]).toEqual([$(49_500), $(50_000)]);
    const none = openFloors({ mode: 'static', startingBalanceCents: $(50_000), maxDrawdownValueCents: $(2_000) });
    expect(setDailyLossTrigger(none, $(49_500)), 'no daily-loss limit: 409').toBeUndefined();
  });

  it('reanchor keeps the allowance and moves the anchor to cash', () => {
    const f = openFloors({
      mode: 'static',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
      dailyLossValueCents: $(1_000),
    });
    setDailyLossTrigger(f, $(49_250)); // allowance now 750
    expect(reanchorDailyLoss(f, $(50_400))).toEqual({
      allowanceCents: $(750),
      previousStartOfDayBalanceCents: $(50_000),
      previousDailyLossTriggerCents: $(49_250),
    });
    expect([f.startOfDayBalanceCents, f.dailyLossTriggerCents], '50,400 and 50,400 - 750').toEqual([
      $(50_400),
      $(49_650),
    ]);
    setDailyLossTrigger(f, $(50_400));
    expect(reanchorDailyLoss(f, $(50_400)), 'allowance 0: 409').toBeUndefined();
  });
});

describe('cash adjust and max-loss-limit change (docs/risk-rules.md#cash-adjust, docs/risk-rules.md#max-loss-limit-change)', () => {
  it('an adjustment shifts anchor, peak, both triggers and the ceiling: headroom unchanged', () => {
    const f = openFloors({
      mode: 'realtime_balance',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
      maxDrawdownLimitCents: 0,
      dailyLossValueCents: $(1_000),
    });
    onAdjustment(f, $(-250), true);
    expect([
      f.peakCents,
      f.maxLossTriggerCents,
      f.startOfDayBalanceCents,
      f.dailyLossTriggerCents,
      ceilingCents(f),
    ]).toEqual([$(49_750), $(47_750), $(49_750), $(48_750), $(49_750)]);
    onAdjustment(f, $(500), false);
    expect(f.maxLossTriggerCents, 'shift_floors: false keeps the floors').toBe($(47_750));
  });

  it('a max-loss-limit change sets the ceiling and recomputes the trigger at once; it may fall; static answers 409', () => {
    const f = openFloors({
      mode: 'realtime_balance',
      startingBalanceCents: $(50_000),
      maxDrawdownValueCents: $(2_000),
    });
    onBalance(f, $(53_000));
    expect(f.maxLossTriggerCents).toBe($(51_000));
    expect(setMaxDrawdownLimit(f, $(100))).toBe(true);
    expect(f.maxLossTriggerCents, 'min(51,000, 50,100): the trigger falls').toBe($(50_100));
    setMaxDrawdownLimit(f, null);
    expect(f.maxLossTriggerCents, 'uncapped again').toBe($(51_000));
    const fixed = openFloors({ mode: 'static', startingBalanceCents: $(50_000), maxDrawdownValueCents: $(2_000) });
    expect(setMaxDrawdownLimit(fixed, $(100))).toBe(false);
  });
});
