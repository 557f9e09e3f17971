// A trader's choice among its roots (docs/backtesting.md#several-instruments-and-contract-rolls), on the two
// sessions around the 2024-03-07 equity-index roll: trade date 2024-03-06 trades ESH4 and NQH4, 2024-03-07 the M4s.
import { describe, expect, it } from 'vitest';
import { RootChoice } from '../../../src/backtest/cells/root-choice.js';
import { TradedMarkets, type TradedMarket } from '../../../src/backtest/cells/traded-markets.js';
import { TraderRandom } from '../../../src/backtest/traders/strategy.js';
import { GlobexCalendar } from '../../../src/core/calendar/globex-calendar.js';
import { loadHolidayFile } from '../../../src/market/holiday-file.js';

const calendar = new GlobexCalendar(loadHolidayFile());
const sessions = ['2024-03-06', '2024-03-07'].map((date) => calendar.sessionOf(date, 'equity_index')!);

/** What the runner does with a print of the market in the replay's session. */
function print(markets: TradedMarkets, market: TradedMarket, ticks: number): void {
  market.bars.onPrint(sessions[markets.sessionIndex]!.openMs, ticks);
  market.lastPrintSession = markets.sessionIndex;
}

describe('RootChoice', () => {
  it('one root: the session contract once it has printed in the session, and no draw', () => {
    const markets = new TradedMarkets(undefined, ['ES'], sessions);
    const random = new TraderRandom(7, 2);
    const choice = new RootChoice(markets, markets.resolve([{ root: 'ES', weight: 1 }]), random);
    markets.sessionIndex = 0;
    // Nothing printed yet this session: ESH4 with no bars, so no entry at this check.
    expect(choice.choose().symbol).toBe('ESH4');
    expect(choice.choose().bars.lastTicks).toBeUndefined();
    print(markets, markets.market('ESH4'), 20_000);
    expect(choice.choose()).toBe(markets.market('ESH4'));
    expect(choice.market).toBe(markets.market('ESH4'));
    // The roll: the next session trades ESM4, which has not printed in it yet.
    markets.sessionIndex = 1;
    expect(choice.choose().symbol).toBe('ESM4');
    expect(choice.choose().bars.lastTicks).toBeUndefined();
    print(markets, markets.market('ESM4'), 20_100);
    expect(choice.choose()).toBe(markets.market('ESM4'));
    // No draw was made: the stream's next number is its first.
    expect(random.int(0, 1_000_000)).toBe(new TraderRandom(7, 2).int(0, 1_000_000));
  });

  it('two roots: drawn by weight among those whose contract has printed in the session, kept until an entry', () => {
    const markets = new TradedMarkets(undefined, ['ES', 'NQ'], sessions);
    const roots = markets.resolve([
      { root: 'ES', weight: 3 },
      { root: 'NQ', weight: 1 },
    ]);
    const random = new TraderRandom(11, 2);
    const choice = new RootChoice(markets, roots, random);
    const twin = new TraderRandom(11, 2);
    markets.sessionIndex = 0;
    // Before the first check, and when neither has printed: the first root's contract with no bars.
    expect(choice.market.symbol).toBe('ESH4');
    expect(choice.choose().bars.lastTicks).toBeUndefined();
    // Only NQH4 has printed: the draw (of a total weight of 1) is NQH4, whatever ES's weight of 3.
    print(markets, markets.market('NQH4'), 72_000);
    expect(choice.choose()).toBe(markets.market('NQH4'));
    twin.int(0, 0);
    // ESH4 prints too, but with no entry sent the trader keeps watching NQH4, and draws nothing more.
    print(markets, markets.market('ESH4'), 20_000);
    for (let i = 0; i < 20; i++) expect(choice.choose()).toBe(markets.market('NQH4'));
    // After each entry, a draw of 0..3 from the trader's stream: ES for 0, 1 and 2, NQ for 3.
    let es = 0;
    for (let i = 0; i < 400; i++) {
      choice.entered();
      const expected = twin.int(0, 3) < 3 ? 'ESH4' : 'NQH4';
      const chosen = choice.choose().symbol;
      expect(chosen).toBe(expected);
      expect(choice.choose().symbol).toBe(expected); // a second check before the next entry: the same, no draw
      if (chosen === 'ESH4') es++;
    }
    // About three entries in four: 400 × 3/4 = 300.
    expect(es).toBeGreaterThan(260);
    expect(es).toBeLessThan(340);
    // A new session draws again without an entry: after the roll, both M4s printed, so one of them by weight.
    markets.sessionIndex = 1;
    print(markets, markets.market('ESM4'), 20_100);
    print(markets, markets.market('NQM4'), 72_100);
    expect(choice.choose().symbol).toBe(twin.int(0, 3) < 3 ? 'ESM4' : 'NQM4');
    // It drew exactly as often as its twin: their streams' next numbers agree.
    expect(random.int(0, 1_000_000)).toBe(twin.int(0, 1_000_000));
  });
});
