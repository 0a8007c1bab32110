/**
 * An order is dated by the calendar day it was placed on in the planning's time zone, not in UTC: an
 * order placed at 00:30 in Paris belongs to that day, for the suppliers' date filters as for the shop.
 */
export const localDateIn = (timezone: string): ((instant: string) => string) => {
  let dated = byZone.get(timezone);
  if (!dated) {
    dated = datesIn(timezone);
    byZone.set(timezone, dated);
  }
  return dated;
};

/** One cache per zone, shared by the projections that date their documents in it. */
const byZone = new Map<string, (instant: string) => string>();

const datesIn = (timezone: string): ((instant: string) => string) => {
  // Constructing the format checks the zone name once, when the projection is built.
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dateOf = (epochMs: number): string => {
    const parts = format.formatToParts(epochMs);
    const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
    return `${part('year')}-${part('month')}-${part('day')}`;
  };
  /**
   * Formatting in a time zone costs microseconds, and every projection dates every order: the answer is
   * kept per quarter of an hour, within which no zone changes its offset nor its date (both happen on a
   * quarter hour), for the last two years or so of quarters asked about (a couple of megabytes).
   */
  const byQuarter = new Map<number, string>();
  return (instant) => {
    const epochMs = Date.parse(instant);
    const quarter = Math.floor(epochMs / quarterMs);
    let date = byQuarter.get(quarter);
    if (date === undefined) {
      date = dateOf(epochMs);
      if (byQuarter.size >= cachedQuarters) byQuarter.delete(byQuarter.keys().next().value!);
      byQuarter.set(quarter, date);
    }
    return date;
  };
};

const quarterMs = 15 * 60 * 1000;
const cachedQuarters = 65_536;
