// Items waiting for a price, indexed by it: resting orders of one kind (buy limits, sell stops, ...) or
// accounts' floor thresholds (a floor is a stop). A sorted array of the prices that hold items and a queue per
// price in arrival order (a Set: insertion-ordered, with O(1) removal when one of many items at a price leaves):
// a print looks only at the prices it crosses, so its cost is O(crossings).
export class PriceLadder<T> {
  /** Prices holding at least one order, ascending. */
  private readonly prices: number[] = [];
  private readonly queues = new Map<number, Set<T>>();

  get isEmpty(): boolean {
    return this.prices.length === 0;
  }

  lowest(): number | undefined {
    return this.prices[0];
  }

  highest(): number | undefined {
    return this.prices[this.prices.length - 1];
  }

  add(priceTicks: number, item: T): void {
    let queue = this.queues.get(priceTicks);
    if (!queue) {
      queue = new Set();
      this.queues.set(priceTicks, queue);
      this.prices.splice(this.insertionIndex(priceTicks), 0, priceTicks);
    }
    queue.add(item);
  }

  remove(priceTicks: number, item: T): boolean {
    const queue = this.queues.get(priceTicks);
    if (!queue?.delete(item)) return false;
    if (queue.size === 0) {
      this.queues.delete(priceTicks);
      this.prices.splice(this.insertionIndex(priceTicks), 1);
    }
    return true;
  }

  /** Orders at prices >= `priceTicks` (or > when `strict`), highest price first, arrival order within a price. */
  collectFromTop(priceTicks: number, strict: boolean, out: T[]): void {
    for (let i = this.prices.length - 1; i >= 0; i--) {
      const price = this.prices[i]!;
      if (price < priceTicks || (strict && price === priceTicks)) break;
      for (const item of this.queues.get(price)!) out.push(item);
    }
  }

  /** Orders at prices <= `priceTicks` (or < when `strict`), lowest price first, arrival order within a price. */
  collectFromBottom(priceTicks: number, strict: boolean, out: T[]): void {
    for (let i = 0; i < this.prices.length; i++) {
      const price = this.prices[i]!;
      if (price > priceTicks || (strict && price === priceTicks)) break;
      for (const item of this.queues.get(price)!) out.push(item);
    }
  }

  /** First index whose price is >= priceTicks (binary search). */
  private insertionIndex(priceTicks: number): number {
    let lo = 0;
    let hi = this.prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.prices[mid]! < priceTicks) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
