// Small order statistics for calibration: nearest-rank quantiles and means of plain number lists.

/** The q-quantile (0 ≤ q ≤ 1) by nearest rank of a list (sorted here, not in place); undefined when it is empty. */
export function quantile(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function median(values: readonly number[]): number | undefined {
  return quantile(values, 0.5);
}

export function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}
