import { addDays, isoWeekday } from '../../events/planning/calendar-date.ts';

/** How a dashboard period is cut: calendar days, ISO weeks (Monday to Sunday), calendar months. */
export type Granularity = 'day' | 'week' | 'month';

/** Inclusive local dates. */
export type Bucket = { start: string; end: string };

const lastDayOfMonth = (date: string): string => {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const firstOfNext = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  return addDays(firstOfNext, -1);
};

const lastDayOf = (start: string, granularity: Granularity): string => {
  switch (granularity) {
    case 'day':
      return start;
    case 'week':
      return addDays(start, 7 - isoWeekday(start));
    case 'month':
      return lastDayOfMonth(start);
  }
};

/** The buckets covering `from` to `to`, the first and last clipped to the period (a week or month cut in half stays a half). */
export const bucketsOf = (from: string, to: string, granularity: Granularity): Bucket[] => {
  const buckets: Bucket[] = [];
  for (let start = from; start <= to;) {
    const last = lastDayOf(start, granularity);
    const end = last < to ? last : to;
    buckets.push({ start, end });
    start = addDays(end, 1);
  }
  return buckets;
};
