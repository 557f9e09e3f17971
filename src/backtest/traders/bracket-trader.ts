// The shape every synthetic strategy shares: during the session it checks its signal every few minutes; when
// flat and under its daily trade count it enters at market with an OCO stop and target a few ticks away; a few
// minutes before the close it cancels what is working and closes what it holds. Subclasses give the signal.
import { Dec, ticksToPrice } from '../../core/money.js';
import type { Side } from '../../core/orders/order-types.js';
import { intParam, rangeParam, type TraderRandom, type Trader, type TraderView } from './strategy.js';

export interface BracketParams {
  tradesPerDay: number;
  contracts: [number, number];
  stopTicks: [number, number];
  targetTicks: [number, number];
  checkEveryMinutes: number;
  flatMinutesBeforeClose: number;
}

export function bracketParams(params: Record<string, unknown>): BracketParams {
  return {
    tradesPerDay: intParam(params, 'trades_per_day', 4),
    contracts: rangeParam(params, 'contracts', [1, 2]),
    stopTicks: rangeParam(params, 'stop_ticks', [8, 40]),
    targetTicks: rangeParam(params, 'target_ticks', [8, 60]),
    checkEveryMinutes: intParam(params, 'check_every_minutes', 5),
    flatMinutesBeforeClose: intParam(params, 'flat_minutes_before_close', 5),
  };
}

export abstract class BracketTrader implements Trader {
  private tradeDate = '';
  private tradesToday = 0;
  /** Each trader checks at its own phase within the check interval, so traders do not all act at once. */
  private readonly phaseMs: number;

  constructor(
    readonly id: string,
    protected readonly random: TraderRandom,
    protected readonly params: BracketParams,
  ) {
    this.phaseMs = random.int(0, params.checkEveryMinutes * 60 - 1) * 1000;
  }

  /** buy, sell, or no trade now. */
  protected abstract signal(view: TraderView): Side | undefined;

  wake(view: TraderView): number | undefined {
    const { kernel, session } = view;
    const nowMs = kernel.nowMs;
    if (!session) return undefined;
    const flatAtMs = session.closeMs - this.params.flatMinutesBeforeClose * 60_000;
    if (nowMs >= flatAtMs) {
      this.closeOut(view);
      return undefined; // the runner wakes it again when the next session opens
    }
    if (session.tradeDate !== this.tradeDate) {
      this.tradeDate = session.tradeDate;
      this.tradesToday = 0;
    }
    if (this.tradesToday < this.params.tradesPerDay && this.isFlat(view) && view.bars.lastTicks !== undefined) {
      const side = this.signal(view);
      if (side) {
        this.enter(view, side, view.bars.lastTicks);
        this.tradesToday++;
      }
    }
    const next = this.nextCheck(nowMs);
    return next < flatAtMs ? next : flatAtMs;
  }

  /** The first wake-up of a session. */
  firstWake(openMs: number): number {
    return this.nextCheck(openMs);
  }

  private nextCheck(nowMs: number): number {
    const step = this.params.checkEveryMinutes * 60_000;
    return Math.floor((nowMs - this.phaseMs) / step) * step + step + this.phaseMs;
  }

  private isFlat(view: TraderView): boolean {
    const { read } = view.kernel;
    return read.netQuantity(view.accountId, view.symbol) === 0 && read.workingOrderIds(view.accountId).length === 0;
  }

  private enter(view: TraderView, side: Side, lastTicks: number): void {
    const { kernel, accountId, symbol } = view;
    const quantity = this.random.pick(this.params.contracts);
    const stop = this.random.pick(this.params.stopTicks);
    const target = this.random.pick(this.params.targetTicks);
    const dir = side === 'buy' ? 1 : -1;
    const exit: Side = side === 'buy' ? 'sell' : 'buy';
    const price = (ticks: number) => ticksToPrice(ticks, new Dec(view.tickSize), view.priceDecimals);
    const base = { account_id: accountId, instrument_id: symbol, quantity };
    const place = (body: Record<string, unknown>) =>
      kernel.dispatch({ type: 'place_order', body: { ...base, ...body } });
    const entry = place({ side, type: 'market', time_in_force: 'day' });
    if (!entry.ok || entry.body.status === 'REJECTED') return;
    const targetOrder = place({
      side: exit,
      type: 'limit',
      limit_price: price(lastTicks + dir * target),
      time_in_force: 'day',
    });
    const stopOrder = place({
      side: exit,
      type: 'stop',
      stop_price: price(lastTicks - dir * stop),
      time_in_force: 'day',
    });
    if (targetOrder.ok && stopOrder.ok)
      kernel.dispatch({ type: 'link_oco', body: { order_ids: [targetOrder.body.order_id, stopOrder.body.order_id] } });
  }

  /** Before the close: cancel what is working, close what is held. */
  private closeOut(view: TraderView): void {
    const { kernel, accountId, symbol } = view;
    for (const orderId of kernel.read.workingOrderIds(accountId, 'client'))
      kernel.dispatch({ type: 'cancel_order', order_id: orderId });
    const net = kernel.read.netQuantity(accountId, symbol);
    if (net !== 0)
      kernel.dispatch({
        type: 'place_order',
        body: {
          account_id: accountId,
          instrument_id: symbol,
          side: net > 0 ? 'sell' : 'buy',
          type: 'market',
          quantity: Math.abs(net),
          time_in_force: 'day',
        },
      });
  }
}
