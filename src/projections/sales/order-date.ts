/**
 * An order is dated by the calendar day it was placed on in the planning's time zone, not in UTC: an
 * order placed at 00:30 in Paris belongs to that day, for the suppliers' date filters as for the shop.
 */
export const localDateIn = (timezone: string): ((instant: string) => string) => {
  // Constructing the format checks the zone name once, when the projection is built.
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return (instant) => {
    const parts = format.formatToParts(new Date(instant));
    const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
    return `${part('year')}-${part('month')}-${part('day')}`;
  };
};
