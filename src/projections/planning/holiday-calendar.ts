import type { Holiday } from '../../events/planning/french-holidays.ts';
import { holidaysBetween } from '../../events/planning/holidays-decider.ts';
import { listHolidays } from './queries.ts';
import type { ReadStore } from '../read-store/read-store.ts';

/**
 * The days on which no appointment is given, from `from` to `to` (inclusive): the French public
 * holidays, computed, and the declared ones, read from the planning read model. The merge is the
 * one the booking rule uses (holidaysBetween), so a day shown open here is not refused as a holiday.
 */
export const holidaysOf = async (store: ReadStore, from: string, to: string): Promise<Holiday[]> => {
  const declared = await listHolidays(store, { from, to });
  return holidaysBetween({ declared: new Map(declared.map((holiday) => [holiday._id, holiday.label])) }, from, to);
};
