import type { PlanningSettings } from '../../../events/planning/events.ts';
import type { Holiday } from '../../../events/planning/french-holidays.ts';
import { holidaysBetween } from '../../../events/planning/holidays-decider.ts';
import { defaultPlanningSettings } from '../../../events/planning/planning-defaults.ts';
import { findPlanningSettings, listHolidays, occupancy, type Occupancy } from '../../../projections/planning/queries.ts';
import type { ReadStore } from '../../../projections/read-store/read-store.ts';

/** What the delivery planning looks like over a window of days, read from the planning read models. */
export type DeliveryPlanningWindow = {
  settings: PlanningSettings;
  /** The French public holidays and the declared ones in the window, by date. */
  holidays: Holiday[];
  /** Places taken per date and slot time; every booking counts, the sale's own included. */
  occupied: Occupancy;
};

/**
 * The same settings and holidays the booking decision uses (its defaults until configured, public
 * holidays computed, declared ones recorded), so a slot offered here is one a booking would accept.
 */
export const readDeliveryPlanning = async (store: ReadStore, window: { from: string; to: string }): Promise<DeliveryPlanningWindow> => {
  const [configured, declared, occupied] = await Promise.all([
    findPlanningSettings(store, 'delivery'),
    listHolidays(store, window),
    occupancy(store, { planningTypes: ['delivery'], from: window.from, to: window.to }),
  ]);
  const settings: PlanningSettings = configured
    ? { planningType: 'delivery', slotTimes: configured.slotTimes, capacityPerSlot: configured.capacityPerSlot, workingDays: configured.workingDays }
    : defaultPlanningSettings.delivery;
  const declaredHolidays = { declared: new Map(declared.map((holiday) => [holiday._id, holiday.label])) };
  return { settings, holidays: holidaysBetween(declaredHolidays, window.from, window.to), occupied };
};
