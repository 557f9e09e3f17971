// The news rule as written (docs/risk-rules.md#news-blackouts): its CSV (header time, roots?, name?; errors by line,
// column and field), its windows [time - before, time + after), and the flat rules and news in plans and overlays
// (null removes; a news overlay's fields replace the plan's, its events as a whole).
import { describe, expect, it } from 'vitest';
import { applyProvisioningOverlay, parseProvisioningOverlay } from '../../../src/core/accounts/plan-overlay.js';
import { parsePlanTemplate } from '../../../src/core/accounts/plans.js';
import {
  blackoutAt,
  nextWindowStartMs,
  parseNewsCsv,
  readNewsRule,
  type NewsCsvError,
} from '../../../src/core/accounts/news-rule.js';

const csvError = (text: string): NewsCsvError => {
  try {
    parseNewsCsv(text);
  } catch (error) {
    return error as NewsCsvError;
  }
  throw new Error('no error');
};

describe('docs/risk-rules.md#news-blackouts: the CSV', () => {
  it('reads time, roots (ES|NQ, empty: every root) and name in any column order; skips blanks and # lines', () => {
    const text = [
      '# 2026 tier-1 releases',
      'name,time,roots',
      'CPI,2026-03-11T07:30:00-05:00,ES|NQ',
      '',
      '"FOMC, statement",2026-03-18T13:00:00-05:00,',
      'EIA,1773840600000,CL',
    ].join('\n');
    expect(parseNewsCsv(text)).toEqual([
      { time: '2026-03-11T07:30:00-05:00', roots: ['ES', 'NQ'], name: 'CPI' },
      { time: '2026-03-18T13:00:00-05:00', name: 'FOMC, statement' },
      { time: 1773840600000, roots: ['CL'], name: 'EIA' },
    ]);
  });

  it.each([
    ['time,roots\n2026-03-11 07:30,ES', 2, 1, 'time', 'expected an ISO 8601 time with an offset or Z'],
    ['time,roots\n2026-03-11T07:30:00Z,ES|ZZ', 2, 22, 'roots', 'got unknown root "ZZ"'],
    ['time,when\n', 1, 6, 'when', 'unknown column; expected time, roots, name'],
    ['roots\nES', 1, 1, '', 'expected a header naming the time column'],
    ['time,roots\n2026-03-11T07:30:00Z', 2, 1, '', 'expected 2 fields like the header, got 1'],
    ['time\n', 2, 1, '', 'expected at least one event after the header'],
  ])('%j: line %i column %i, %s', (text, line, column, field, words) => {
    const error = csvError(text);
    expect(error).toMatchObject({ line, column, field });
    expect(error.detail).toContain(words);
  });
});

describe('docs/risk-rules.md#news-blackouts: windows', () => {
  const rule = readNewsRule(
    {
      events: [
        { time: '2026-03-11T12:30:00Z', roots: ['ES'] },
        { time: '2026-03-11T12:31:00Z', roots: ['CL'] },
      ],
      before_minutes: 2,
      after_minutes: 1,
    },
    'news',
  );
  const t = (iso: string) => Date.parse(iso);

  it('[time - before, time + after): in at the start, out at the end; by root, a mini covering its micros', () => {
    expect(blackoutAt(rule, t('2026-03-11T12:27:59.999Z'), 'ES', undefined)).toBeUndefined();
    expect(blackoutAt(rule, t('2026-03-11T12:28:00Z'), 'ES', undefined)?.timeMs).toBe(t('2026-03-11T12:30:00Z'));
    expect(blackoutAt(rule, t('2026-03-11T12:30:59.999Z'), 'MES', 'ES')).toBeDefined();
    expect(blackoutAt(rule, t('2026-03-11T12:31:00Z'), 'ES', undefined), 'ended').toBeUndefined();
    expect(blackoutAt(rule, t('2026-03-11T12:31:00Z'), 'CL', undefined), 'the EIA window is on').toBeDefined();
    expect(blackoutAt(rule, t('2026-03-11T12:29:00Z'), 'NQ', undefined)).toBeUndefined();
  });

  it('the next window start strictly after a time', () => {
    expect(nextWindowStartMs(rule, t('2026-03-11T12:00:00Z'))).toBe(t('2026-03-11T12:28:00Z'));
    expect(nextWindowStartMs(rule, t('2026-03-11T12:28:00Z'))).toBe(t('2026-03-11T12:29:00Z'));
    expect(nextWindowStartMs(rule, t('2026-03-11T12:29:00Z'))).toBeUndefined();
  });
});

describe('docs/risk-rules.md#provisioning: the clock rules in overlays', () => {
  const base = parsePlanTemplate(
    {
      starting_balance: '50000',
      risk_profile: {
        max_drawdown_mode: 'static',
        max_drawdown_value: '2000',
        flat_by: '15:59',
        flat_by_action: 'fail',
        news: { events: [{ time: '2026-03-11T12:30:00Z', roots: ['ES'] }], before_minutes: 5, action: 'flatten' },
      },
      passing_criteria: { profit_target: '3000' },
    },
    'plan',
  );
  const overlay = (risk: unknown) =>
    applyProvisioningOverlay(base, parseProvisioningOverlay({ risk_profile: risk }, 'accounts[0]'));

  it('reads flat_by as minutes, keeps defaults absent', () => {
    expect(base.riskProfile).toMatchObject({ flatByMinutes: 959, flatByAction: 'fail' });
    expect(base.riskProfile.holdOverWeekend).toBeUndefined();
    expect(overlay({ hold_over_weekend: true }).riskProfile.holdOverWeekend, 'true is the default').toBeUndefined();
  });

  it('a news overlay replaces fields, keeps the rest; null removes the rule', () => {
    const news = overlay({ news: { after_minutes: 10 } }).riskProfile.news!;
    expect(news).toMatchObject({ beforeMinutes: 5, afterMinutes: 10, action: 'flatten' });
    expect(news.events).toBe(base.riskProfile.news!.events);
    expect(overlay({ news: null }).riskProfile.news).toBeUndefined();
  });

  it('refuses what leaves flat_by_action fail without a flat time, naming what the overlay changed', () => {
    expect(() => overlay({ flat_by: null })).toThrow('accounts[0].risk_profile.flat_by: flat_by_action fail needs');
    expect(() => overlay({ flat_by: null, hold_over_weekend: false })).not.toThrow();
    expect(() => overlay({ news: { file: 'x.csv' } })).toThrow(
      'accounts[0].risk_profile.news.file: a news file is read',
    );
  });

  it('a news overlay on a plan without news needs its events', () => {
    const plain = parsePlanTemplate(
      {
        starting_balance: '50000',
        risk_profile: { max_drawdown_mode: 'static', max_drawdown_value: '2000' },
        passing_criteria: { profit_target: '3000' },
      },
      'plan',
    );
    expect(() =>
      applyProvisioningOverlay(plain, parseProvisioningOverlay({ risk_profile: { news: { action: 'fail' } } }, 'a')),
    ).toThrow('a.risk_profile.news.events: expected the events');
  });
});
