import { addDays } from '../../../events/planning/calendar-date.ts';

/**
 * The days the occupied-slot query is about: the listed days (`date`, `dates`), else a range
 * (`start_date` defaulting to today, `end_date` to 30 days after the start). At most 366 days apart.
 */

export const defaultRangeDays = 30;
export const maxRangeDays = 366;

export type RequestedDates = { start: string; end: string; dates: string[] };
export type DatesProblem = { field: string; message: string };

type DatesQuery = { date?: string; dates?: string[]; start_date?: string; end_date?: string };

const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const daysCovered = (start: string, end: string): number => dayNumber(end) - dayNumber(start) + 1;

const everyDay = (start: string, end: string): string[] => Array.from({ length: daysCovered(start, end) }, (_, offset) => addDays(start, offset));

export const requestedDates = (query: DatesQuery, today: string): RequestedDates | DatesProblem => {
  const listed = [...new Set([...(query.date === undefined ? [] : [query.date]), ...(query.dates ?? [])])].sort();
  const rangeField = query.start_date !== undefined ? 'start_date' : query.end_date !== undefined ? 'end_date' : null;

  const [first, last] = [listed[0], listed.at(-1)];
  if (first !== undefined && last !== undefined) {
    if (rangeField) return { field: rangeField, message: 'cannot be combined with date or dates' };
    if (daysCovered(first, last) > maxRangeDays) return { field: 'dates', message: `the days must lie within ${maxRangeDays} days` };
    return { start: first, end: last, dates: listed };
  }

  const start = query.start_date ?? today;
  const end = query.end_date ?? addDays(start, defaultRangeDays);
  if (end < start) return { field: 'end_date', message: `must not be before the start date (${start})` };
  if (daysCovered(start, end) > maxRangeDays) return { field: 'end_date', message: `the range must not exceed ${maxRangeDays} days` };
  return { start, end, dates: everyDay(start, end) };
};
