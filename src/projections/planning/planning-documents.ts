import type { BookingRef, PlanningType } from '../../events/schema/common-schemas.ts';
import type { Tracked } from '../projection.ts';

/** The planning read models: each planning's settings, the declared holidays, and each slot's bookings. */

export const planningSettingsCollection = 'planning_settings';
export const holidaysCollection = 'holidays';
export const planningSlotsCollection = 'planning_slots';

export type PlanningSettingsDocument = Tracked & {
  /** The planning type. */
  _id: PlanningType;
  slotTimes: string[];
  capacityPerSlot: number;
  workingDays: number[];
  configuredAt: string;
};

/** A removed holiday stays as `declared: false`, so that replaying its declaration cannot bring it back. */
export type HolidayDocument = Tracked & {
  /** The date, YYYY-MM-DD. */
  _id: string;
  label: string | null;
  declared: boolean;
  declaredAt: string;
  removedAt: string | null;
};

export type PlanningSlotDocument = Tracked & {
  /** `<type>|<date>|<time>`. */
  _id: string;
  planningType: PlanningType;
  date: string;
  time: string;
  /** The number of bookings, kept for the occupancy sums. */
  count: number;
  /** Who holds the places, as `bookingKey`s. */
  bookings: string[];
};

export const slotId = (planningType: PlanningType, date: string, time: string): string => `${planningType}|${date}|${time}`;

export const bookingKey = (booking: BookingRef): string => (booking.kind === 'sav' ? `sav:${booking.savId}` : `sale:${booking.saleId}`);
