/**
 * Orders are stamped the way the shop exports them: Paris wall-clock time with the offset in force
 * at that instant (+01:00 in winter, +02:00 in summer), which the time zone database decides.
 */
const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Paris', timeZoneName: 'longOffset' });

const dayMs = 86_400_000;
let cachedDay = Number.NaN;
let cachedDayOffset: number | undefined;

const lookUpOffset = (epochMs: number): number => {
  const name = offsetFormat.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (match === null) throw new Error(`unexpected time zone offset "${name}"`);
  return match[1] === undefined ? 0 : (Number(match[2]) * 60 + Number(match[3])) * (match[1] === '-' ? -1 : 1);
};

/** Minutes to add to UTC to get Paris time at this instant. */
export function parisOffsetMinutes(epochMs: number): number {
  // The time zone lookup is slow next to making an order. Paris changes its offset at most once in a
  // UTC day, so a day that starts and ends on the same offset keeps it throughout; and orders come in
  // time order, so remembering the last day spares nearly every lookup.
  const day = Math.floor(epochMs / dayMs);
  if (day !== cachedDay) {
    const atStart = lookUpOffset(day * dayMs);
    cachedDay = day;
    cachedDayOffset = atStart === lookUpOffset(day * dayMs + dayMs - 1) ? atStart : undefined;
  }
  return cachedDayOffset ?? lookUpOffset(epochMs);
}

/** RFC 3339 at the second, in Paris time: `2026-10-02T09:14:00+02:00`. */
export function parisTimestamp(epochMs: number): string {
  const offset = parisOffsetMinutes(epochMs);
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${local}${sign}${hours}:${minutes}`;
}

/** Paris local date parts of an instant, to weigh it by hour, weekday and month. */
export function parisClock(epochMs: number): { hour: number; weekday: number; month: number } {
  const local = new Date(epochMs + parisOffsetMinutes(epochMs) * 60_000);
  return { hour: local.getUTCHours(), weekday: local.getUTCDay(), month: local.getUTCMonth() };
}
