import { offsetMinutesIn, zonedTimestamp } from '../../time/zoned-timestamp.ts';

/**
 * Orders are stamped the way the shop exports them: Paris wall-clock time with the offset in force
 * at that instant (+01:00 in winter, +02:00 in summer), which the time zone database decides.
 */

/** Minutes to add to UTC to get Paris time at this instant. */
export const parisOffsetMinutes: (epochMs: number) => number = offsetMinutesIn('Europe/Paris');

/** RFC 3339 at the second, in Paris time: `2026-10-02T09:14:00+02:00`. */
export const parisTimestamp: (epochMs: number) => string = zonedTimestamp('Europe/Paris');

/** Paris local date parts of an instant, to weigh it by hour, weekday and month. */
export function parisClock(epochMs: number): { hour: number; weekday: number; month: number } {
  const local = new Date(epochMs + parisOffsetMinutes(epochMs) * 60_000);
  return { hour: local.getUTCHours(), weekday: local.getUTCDay(), month: local.getUTCMonth() };
}
