// The simulation's only source of choices (docs/api.md#the-simulation): a seeded xoroshiro128+ (pure-rand), so the
// same seed always makes the same steps. Nothing that decides a step reads the wall clock or Math.random.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export class SimRandom {
  private readonly rng: ReturnType<typeof xoroshiro128plus>;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
    this.rng.jump(); // a small seed leaves the state mostly zero bits: one jump mixes it (as core/ids.ts does)
  }

  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return uniformInt(this.rng, min, max);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.int(0, 999_999) < p * 1_000_000;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** One of the choices, each as likely as its weight. */
  weighted<T>(choices: ReadonlyArray<readonly [weight: number, choice: T]>): T {
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    let roll = this.int(0, total - 1);
    for (const [weight, choice] of choices) {
      if (roll < weight) return choice;
      roll -= weight;
    }
    throw new Error('unreachable: the roll is below the total weight');
  }
}
