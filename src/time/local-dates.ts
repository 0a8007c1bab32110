import { offsetMinutesIn } from './zoned-timestamp.ts';

/**
 * An order is dated by the calendar day it was placed on in the planning's time zone, not in UTC: an
 * order placed at 00:30 in Paris belongs to that day, for the suppliers' date filters as for the shop.
 * Every projection dates every order: the zone's offsets come cached from time/zoned-timestamp.ts, and
 * each day's text is written once (a few thousand days in a log).
 */
const dayMs = 86_400_000;
const dayTexts = new Map<number, string>();
/** Far more days than a log spans; bounds the map whatever dates imports carry. */
const maxDayTexts = 100_000;

const dayText = (day: number): string => {
  let text = dayTexts.get(day);
  if (text === undefined) {
    text = new Date(day * dayMs).toISOString().slice(0, 10);
    if (dayTexts.size >= maxDayTexts) dayTexts.clear();
    dayTexts.set(day, text);
  }
  return text;
};

export const localDateIn = (timezone: string): ((instant: string) => string) => {
  const offsetAt = offsetMinutesIn(timezone);
  return (instant) => {
    const epochMs = Date.parse(instant);
    return dayText(Math.floor((epochMs + offsetAt(epochMs) * 60_000) / dayMs));
  };
};
