import { parisClock } from './paris-time.ts';

/**
 * Spreads orders over a period the way a shop sees them: few at night, peaks at lunch and in the
 * evening, busier Sundays and Mondays, sales in January and July, Black Friday in November.
 * The period is cut into hours, each weighted by its Paris clock; a fraction of the cumulated weight
 * maps to one instant, so increasing fractions give increasing instants.
 */

const byHour = [0.25, 0.12, 0.06, 0.04, 0.04, 0.06, 0.15, 0.35, 0.6, 0.85, 1, 1.05, 1.15, 1.2, 1.05, 1, 1, 1.05, 1.15, 1.2, 1.4, 1.45, 1, 0.55];
/** Sunday first, as Date.getUTCDay counts. */
const byWeekday = [1.15, 1.1, 1, 1, 0.95, 0.9, 0.95];
const byMonth = [1.25, 0.9, 1, 1, 0.95, 1.05, 1.1, 0.75, 1.05, 1.05, 1.3, 1.1];

const hourMs = 3_600_000;

const weightAt = (epochMs: number): number => {
  const { hour, weekday, month } = parisClock(epochMs);
  return (byHour[hour] ?? 1) * (byWeekday[weekday] ?? 1) * (byMonth[month] ?? 1);
};

/** Maps a fraction in [0, 1] to an instant (whole second, epoch ms) of [fromMs, toMs]. */
export function orderTimeline(fromMs: number, toMs: number): (fraction: number) => number {
  const first = Math.ceil(fromMs / 1000) * 1000;
  const last = Math.floor(toMs / 1000) * 1000;
  const hours = Math.max(1, Math.ceil((last - first) / hourMs));
  const cumulated = new Float64Array(hours + 1);
  for (let h = 0; h < hours; h += 1) {
    const start = first + h * hourMs;
    const length = Math.min(hourMs, last - start);
    cumulated[h + 1] = (cumulated[h] ?? 0) + weightAt(start + length / 2) * Math.max(length, 0);
  }
  const total = cumulated[hours] ?? 0;
  return (fraction) => {
    if (total === 0) return first;
    const target = fraction * total;
    let low = 0;
    let high = hours - 1;
    // The last hour whose cumulated weight does not exceed the target.
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((cumulated[middle] ?? 0) <= target) low = middle;
      else high = middle - 1;
    }
    const before = cumulated[low] ?? 0;
    const span = (cumulated[low + 1] ?? 0) - before;
    const length = Math.min(hourMs, last - (first + low * hourMs));
    const instant = first + low * hourMs + (span > 0 ? ((target - before) / span) * length : 0);
    return Math.min(last, Math.max(first, Math.floor(instant / 1000) * 1000));
  };
}
