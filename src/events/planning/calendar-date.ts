import { offsetMinutesIn } from '../../time/zoned-timestamp.ts';

/**
 * Calendar arithmetic on local dates (`YYYY-MM-DD`). A local date names a day of the planning's
 * calendar, not an instant, so it is computed at UTC midnight where no daylight-saving shift exists.
 */

const toUtc = (date: string): Date => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day));
};

const format = (utc: Date): string => utc.toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => {
  const utc = toUtc(date);
  utc.setUTCDate(utc.getUTCDate() + days);
  return format(utc);
};

/** ISO weekday: 1 = Monday ... 7 = Sunday. */
export const isoWeekday = (date: string): number => {
  const day = toUtc(date).getUTCDay();
  return day === 0 ? 7 : day;
};

export const yearOf = (date: string): number => Number(date.slice(0, 4));

/** The local date of an instant in an IANA time zone (e.g. 'Europe/Paris'). */
export const localDateIn = (instant: Date, timeZone: string): string => {
  const epochMs = instant.getTime();
  return format(new Date(epochMs + offsetMinutesIn(timeZone)(epochMs) * 60_000));
};
