// The Fisher–Freeman–Halton exact test of a 2 × 3 table (docs/backtesting.md#outcomes-under-a-plan): two groups
// of traders by first outcome (passed, failed, open). Exact, since a group can be a few dozen traders; pure.
// test/calibrate/freeman-halton.test.ts works small tables by hand.

/** Probabilities within this factor of the observed one count as ties (rounding of the log sums; R uses the same). */
const TIE = 1 + 1e-7;

/**
 * p for the rows `first` and `second`: under fixed row and column totals a table has the multivariate hypergeometric
 * probability r₁! r₂! c₁! c₂! c₃! / (N! Π xᵢⱼ!), and p is the sum over every table no more probable than the observed.
 * The tables are enumerated by the smaller row's first two cells (the rest follows from the margins), in log space:
 * factorials of hundreds of traders overflow a double.
 */
export function freemanHaltonP(first: readonly number[], second: readonly number[]): number {
  if (first.length !== 3 || second.length !== 3) throw new RangeError('expected two rows of three counts');
  if ([...first, ...second].some((x) => !Number.isInteger(x) || x < 0))
    throw new RangeError(`expected counts that are whole numbers ≥ 0, got [${first}] and [${second}]`);
  const columns = first.map((x, j) => x + second[j]!);
  const total = columns.reduce((a, b) => a + b, 0);
  const small = sum(first) <= sum(second) ? first : second;
  const rowTotal = sum(small);
  const logFactorial = logFactorials(total);
  const constant =
    logFactorial[rowTotal]! +
    logFactorial[total - rowTotal]! +
    columns.reduce((s, c) => s + logFactorial[c]!, 0) -
    logFactorial[total]!;
  const logP = (row: readonly number[]) =>
    constant - row.reduce((s, x, j) => s + logFactorial[x]! + logFactorial[columns[j]! - x]!, 0);
  const observed = logP(small) + Math.log(TIE);
  const [c1, c2, c3] = columns as [number, number, number];
  let p = 0;
  for (let a = Math.max(0, rowTotal - c2 - c3); a <= Math.min(c1, rowTotal); a++)
    for (let b = Math.max(0, rowTotal - a - c3); b <= Math.min(c2, rowTotal - a); b++) {
      const logProbability = logP([a, b, rowTotal - a - b]);
      if (logProbability <= observed) p += Math.exp(logProbability);
    }
  return Math.min(1, p);
}

function sum(row: readonly number[]): number {
  return row.reduce((a, b) => a + b, 0);
}

/** log k! for k = 0..n, as running sums of log k. */
function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) table[k] = table[k - 1]! + Math.log(k);
  return table;
}
