/**
 * The one timestamp format of every API answer: RFC 3339 at the second, in the planning time zone with
 * the offset in force at that instant, e.g. `2026-07-07T21:40:54+02:00` (Paris in summer) and
 * `2026-01-15T09:00:00+01:00` (in winter). A zone at UTC writes `+00:00`, so that every timestamp has
 * the same shape and length.
 */

const quarterMs = 15 * 60 * 1000;
const cachedQuarters = 65_536;

const offsetOf = (timezone: string): ((epochMs: number) => number) => {
  // Constructing the format checks the zone name once.
  const format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' });
  const lookUp = (epochMs: number): number => {
    const name = format.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value ?? '';
    // Seconds appear only in the local mean times of the 19th century (GMT+00:09:21): dropped.
    const match = /^GMT(?:([+-])(\d{2}):(\d{2})(?::\d{2})?)?$/.exec(name);
    if (match === null) throw new Error(`Unexpected offset "${name}" in time zone ${timezone}`);
    return match[1] === undefined ? 0 : (Number(match[2]) * 60 + Number(match[3])) * (match[1] === '-' ? -1 : 1);
  };
  // The lookup costs microseconds; zones change their offset on a quarter hour, so the offset is
  // kept per quarter of an hour, for the last two years or so of quarters asked about.
  const byQuarter = new Map<number, number>();
  return (epochMs) => {
    const quarter = Math.floor(epochMs / quarterMs);
    let offset = byQuarter.get(quarter);
    if (offset === undefined) {
      offset = lookUp(quarter * quarterMs);
      if (byQuarter.size >= cachedQuarters) byQuarter.delete(byQuarter.keys().next().value!);
      byQuarter.set(quarter, offset);
    }
    return offset;
  };
};

const twoDigits = (value: number): string => String(value).padStart(2, '0');

/** `+02:00` for 120 minutes, `-03:30` for -210. */
const offsetText = (minutes: number): string =>
  `${minutes < 0 ? '-' : '+'}${twoDigits(Math.floor(Math.abs(minutes) / 60))}:${twoDigits(Math.abs(minutes) % 60)}`;

export type ZonedTimestamp = (instant: string | number | Date) => string;

const offsetsByZone = new Map<string, (epochMs: number) => number>();

/** Minutes to add to UTC to get the zone's wall-clock time at an instant (cached per zone). */
export const offsetMinutesIn = (timezone: string): ((epochMs: number) => number) => {
  let offsetAt = offsetsByZone.get(timezone);
  if (offsetAt === undefined) {
    offsetAt = offsetOf(timezone);
    offsetsByZone.set(timezone, offsetAt);
  }
  return offsetAt;
};

const byZone = new Map<string, ZonedTimestamp>();

/** The formatter of one zone (one per zone and process, its offsets cached). */
export const zonedTimestamp = (timezone: string): ZonedTimestamp => {
  let format = byZone.get(timezone);
  if (format === undefined) {
    const offsetAt = offsetMinutesIn(timezone);
    format = (instant) => {
      const epochMs = typeof instant === 'number' ? instant : instant instanceof Date ? instant.getTime() : Date.parse(instant);
      if (Number.isNaN(epochMs)) throw new RangeError(`Not an instant: ${String(instant)}`);
      const seconds = Math.floor(epochMs / 1000) * 1000;
      const offset = offsetAt(seconds);
      return `${new Date(seconds + offset * 60_000).toISOString().slice(0, 19)}${offsetText(offset)}`;
    };
    byZone.set(timezone, format);
  }
  return format;
};

/**
 * An RFC 3339 instant as the service's events and read models write them (`…Z`, `…+02:00`, with or
 * without fractions of a second). Dates (`2026-07-07`) and times (`09:00`) are not instants.
 */
export const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
