/** Small statistics over measured samples. */

/** The p-quantile (0..1) of ascending `sorted`, nearest rank; undefined when empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return undefined;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank];
}

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && !Number.isNaN(v));
  sorted.sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
