import { addDays, isoWeekday } from '../../events/planning/calendar-date.ts';

/** How a dashboard period is cut: calendar days, ISO weeks (Monday to Sunday), calendar months. */
export type Granularity = 'day' | 'week' | 'month';

/** Inclusive local dates. */
export type Bucket = { start: string; end: string };

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** The last day of the month of `date`, by the calendar's rules (leap years included). */
export const lastDayOfMonth = (date: string): string => {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return `${date.slice(0, 8)}${twoDigits(days)}`;
};

/** The day after `date`: by string for all but a month's last day, the common case of months and weeks alike. */
const dayAfter = (date: string): string => {
  const day = Number(date.slice(8, 10));
  if (day < 28 || date !== lastDayOfMonth(date)) return `${date.slice(0, 8)}${twoDigits(day + 1)}`;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${date.slice(0, 5)}${twoDigits(month + 1)}-01`;
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
    start = dayAfter(end);
  }
  return buckets;
};
