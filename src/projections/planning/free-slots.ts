import { addDays, isoWeekday } from '../../events/planning/calendar-date.ts';
import { defaultPlanningSettings } from '../../events/planning/planning-defaults.ts';
import type { PlanningType } from '../../events/schema/common-schemas.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { holidaysOf } from './holiday-calendar.ts';
import { findPlanningSettings, occupancy } from './queries.ts';

/** A slot with at least one place left. */
export type FreeSlot = { date: string; time: string; free: number; capacity: number };

/**
 * The slots of a planning with a place left, from `from` to `to` (inclusive), by the rules a booking
 * is decided by (planning-day-decider.ts): no day before `today`, only working days, no holiday, the
 * planning's slot times and capacity. The SAV being moved (`savId`) does not occupy its own place, so
 * its current slot is listed as it stands for it. Read from the read models: a place shown free may
 * be taken before it is booked, and the booking decides.
 */
export const freeSlots = async (
  store: ReadStore,
  query: { planningType: PlanningType; from: string; to: string; today: string; savId?: number },
): Promise<FreeSlot[]> => {
  const from = query.from < query.today ? query.today : query.from;
  if (query.to < from) return [];
  const [configured, taken, holidays] = await Promise.all([
    findPlanningSettings(store, query.planningType),
    occupancy(store, { planningTypes: [query.planningType], from, to: query.to, excludeSavId: query.savId }),
    holidaysOf(store, from, query.to),
  ]);
  const { slotTimes, capacityPerSlot, workingDays } = configured ?? defaultPlanningSettings[query.planningType];
  const closed = new Set(holidays.map((holiday) => holiday.date));
  const slots: FreeSlot[] = [];
  for (let date = from; date <= query.to; date = addDays(date, 1)) {
    if (!workingDays.includes(isoWeekday(date)) || closed.has(date)) continue;
    for (const time of slotTimes) {
      const free = capacityPerSlot - (taken[date]?.[time] ?? 0);
      if (free > 0) slots.push({ date, time, free, capacity: capacityPerSlot });
    }
  }
  return slots;
};
