import { addDays, isoWeekday, localDateIn } from '../../../events/planning/calendar-date.ts';
import { holidaysBetween } from '../../../events/planning/holidays-decider.ts';
import { defaultPlanningSettings } from '../../../events/planning/planning-defaults.ts';
import { findPlanningSettings, listHolidays, occupancy } from '../../../projections/planning/queries.ts';
import type { Runtime } from '../../../runtime.ts';

/** How far ahead the free delivery slots are listed: today and the next 30 days, in the planning's time zone. */
export const availabilityWindowDays = 30;

export type DeliveryAvailability = {
  range: { start: string; end: string };
  /** The days with at least one free slot, in order. */
  dates: string[];
  /** Per such day, its free slot times. */
  slots: Record<string, string[]>;
};

/**
 * The free delivery slots a sale can be given, read from the planning read models: working days that
 * are not holidays, slots below capacity. The sale's own appointment does not take a place from itself.
 */
export const deliveryAvailability = async (runtime: Runtime, ownAppointment: { date: string; time: string } | null): Promise<DeliveryAvailability> => {
  const start = localDateIn(runtime.clock.now(), runtime.config.planningTimezone);
  const end = addDays(start, availabilityWindowDays);
  const [configured, declared, occupied] = await Promise.all([
    findPlanningSettings(runtime.readStore, 'delivery'),
    listHolidays(runtime.readStore, { from: start, to: end }),
    occupancy(runtime.readStore, { planningTypes: ['delivery'], from: start, to: end }),
  ]);
  const settings = configured ?? defaultPlanningSettings.delivery;
  const declaredHolidays = { declared: new Map(declared.map((holiday) => [holiday._id, holiday.label] as const)) };
  const holidays = new Set(holidaysBetween(declaredHolidays, start, end).map((holiday) => holiday.date));

  const taken = (date: string, time: string): number => {
    const count = occupied[date]?.[time] ?? 0;
    return ownAppointment?.date === date && ownAppointment.time === time ? count - 1 : count;
  };
  const dates: string[] = [];
  const slots: Record<string, string[]> = {};
  for (let date = start; date <= end; date = addDays(date, 1)) {
    if (!settings.workingDays.includes(isoWeekday(date)) || holidays.has(date)) continue;
    const free = settings.slotTimes.filter((time) => taken(date, time) < settings.capacityPerSlot);
    if (free.length === 0) continue;
    dates.push(date);
    slots[date] = free;
  }
  return { range: { start, end }, dates, slots };
};
