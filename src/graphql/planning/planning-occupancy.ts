import { addDays, isoWeekday } from '../../events/planning/calendar-date.ts';
import type { PlanningType } from '../../events/schema/common-schemas.ts';
import type { PlanningSettings } from '../../events/planning/events.ts';
import type { Holiday } from '../../events/planning/french-holidays.ts';
import { defaultPlanningSettings } from '../../events/planning/planning-defaults.ts';
import { findPlanningSettings, occupancy, type Occupancy } from '../../projections/planning/queries.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';
import { holidaysOf } from '../../projections/planning/holiday-calendar.ts';

/**
 * The planning occupancy of a range of days. `occupied` is the very answer of the REST occupied-slot
 * route (the same query function, the same holidays); each planning type then adds its capacity and
 * the places left per slot.
 */

export type OccupancyQuery = { from: string; to: string; planningTypes: readonly PlanningType[]; excludeSavId?: number };

export type SlotOccupancy = { time: string; capacity: number; taken: number; free: number };
export type DayOccupancy = { date: string; open: boolean; closedBecause: 'holiday' | 'not_a_working_day' | null; slots: SlotOccupancy[] };
export type TypeOccupancy = { settings: PlanningSettings; days: DayOccupancy[] };
export type PlanningOccupancy = {
  from: string;
  to: string;
  timezone: string;
  holidays: Holiday[];
  /** Summed over the requested planning types, as the REST route answers it. */
  occupied: Occupancy;
  plannings: TypeOccupancy[];
};

const daysBetween = (from: string, to: string): string[] => {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
};

const dayOf = (date: string, settings: PlanningSettings, holidays: ReadonlySet<string>, taken: Record<string, number>): DayOccupancy => {
  const closedBecause = holidays.has(date) ? 'holiday' : settings.workingDays.includes(isoWeekday(date)) ? null : 'not_a_working_day';
  const capacity = closedBecause === null ? settings.capacityPerSlot : 0;
  // A booking made before the slot times changed still holds its place: its time is shown, with no capacity.
  const times = [...new Set([...settings.slotTimes, ...Object.keys(taken)])].sort();
  const slots = times.map((time) => {
    const slotCapacity = settings.slotTimes.includes(time) ? capacity : 0;
    const count = taken[time] ?? 0;
    return { time, capacity: slotCapacity, taken: count, free: Math.max(0, slotCapacity - count) };
  });
  return { date, open: closedBecause === null, closedBecause, slots };
};

/** The configured settings, else the defaults the booking rule applies until a planning is configured. */
const settingsOf = async (store: ReadStore, planningType: PlanningType): Promise<PlanningSettings> => {
  const configured = await findPlanningSettings(store, planningType);
  if (!configured) return defaultPlanningSettings[planningType];
  const { slotTimes, capacityPerSlot, workingDays } = configured;
  return { planningType, slotTimes, capacityPerSlot, workingDays };
};

export const planningOccupancy = async (store: ReadStore, timezone: string, query: OccupancyQuery): Promise<PlanningOccupancy> => {
  const { from, to, excludeSavId } = query;
  const exclusion = excludeSavId === undefined ? {} : { excludeSavId };
  const [occupied, holidays, perType] = await Promise.all([
    occupancy(store, { planningTypes: query.planningTypes, from, to, ...exclusion }),
    holidaysOf(store, from, to),
    Promise.all(
      query.planningTypes.map(async (planningType) => ({
        settings: await settingsOf(store, planningType),
        taken: await occupancy(store, { planningTypes: [planningType], from, to, ...exclusion }),
      })),
    ),
  ]);
  const holidayDates = new Set(holidays.map((holiday) => holiday.date));
  const days = daysBetween(from, to);
  const plannings = perType.map(({ settings, taken }) => ({
    settings,
    days: days.map((date) => dayOf(date, settings, holidayDates, taken[date] ?? {})),
  }));
  return { from, to, timezone, holidays, occupied, plannings };
};
