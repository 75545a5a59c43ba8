/** The nearest-rank percentile of values sorted ascending (`share` 0.5 for the median, 0.99 for p99); 0 when empty. */
export const percentile = (sorted: readonly number[], share: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
