import type { PlanningType } from '../../events/schema/common-schemas.ts';
import type { Filter, ReadStore } from '../read-store/read-store.ts';
import {
  bookingKey,
  holidaysCollection,
  planningSettingsCollection,
  planningSlotsCollection,
  type HolidayDocument,
  type PlanningSettingsDocument,
  type PlanningSlotDocument,
} from './planning-documents.ts';

/** Reads of the planning read models. */

/** Occupied places: date (YYYY-MM-DD) -> time (HH:MM) -> count. */
export type Occupancy = Record<string, Record<string, number>>;

export const findPlanningSettings = (store: ReadStore, planningType: PlanningType): Promise<PlanningSettingsDocument | null> =>
  store.collection<PlanningSettingsDocument>(planningSettingsCollection).findOne({ _id: planningType });

/** The declared holidays, in date order, within the inclusive range when given. */
export const listHolidays = async (store: ReadStore, range: { from?: string; to?: string } = {}): Promise<HolidayDocument[]> => {
  const filter: Filter<HolidayDocument> = { declared: true };
  if (range.from !== undefined || range.to !== undefined) {
    filter._id = { ...(range.from !== undefined && { $gte: range.from }), ...(range.to !== undefined && { $lte: range.to }) };
  }
  return store
    .collection<HolidayDocument>(holidaysCollection)
    .find(filter, { sort: { _id: 1 } })
    .toArray();
};

/**
 * The occupied places of the given plannings between two dates (inclusive), summed over the plannings.
 * The SAV being rescheduled (`excludeSavId`) does not occupy its own place, so it can keep or move it.
 * Slots with no place taken are left out.
 */
export const occupancy = async (
  store: ReadStore,
  query: { planningTypes: readonly PlanningType[]; from: string; to: string; excludeSavId?: number },
): Promise<Occupancy> => {
  const slots = await store
    .collection<PlanningSlotDocument>(planningSlotsCollection)
    .find({ planningType: { $in: [...query.planningTypes] }, date: { $gte: query.from, $lte: query.to }, count: { $gt: 0 } }, { sort: { date: 1, time: 1 } })
    .toArray();
  const excluded = query.excludeSavId === undefined ? undefined : bookingKey({ kind: 'sav', savId: query.excludeSavId });
  const occupied: Occupancy = {};
  for (const slot of slots) {
    const count = slot.bookings.filter((booking) => booking !== excluded).length;
    if (count === 0) continue;
    const day = (occupied[slot.date] ??= {});
    day[slot.time] = (day[slot.time] ?? 0) + count;
  }
  return occupied;
};
