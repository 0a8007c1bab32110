/**
 * Percentiles of a sample, by linear interpolation between the closest ranks (the default of
 * spreadsheets' PERCENTILE.INC and of numpy): the median of an even sample is the mean of its two
 * middle values, so an analyst recomputing a figure by hand finds the same number.
 */
export const percentile = (sorted: readonly number[], fraction: number): number | null => {
  if (sorted.length === 0) return null;
  const rank = (sorted.length - 1) * fraction;
  const below = Math.floor(rank);
  const lower = sorted[below]!;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)]!;
  return lower + (upper - lower) * (rank - below);
};

export type DelayStats = { samples: number; median: number | null; p90: number | null };

export const delayStats = (samples: readonly number[]): DelayStats => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { samples: sorted.length, median: percentile(sorted, 0.5), p90: percentile(sorted, 0.9) };
};
