import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { bookingRef, instant, localDate, localTime, planningType } from '../schema/common-schemas.ts';

/**
 * Planning events. A planning's settings live in `planning-<type>`, the declared holidays (shared by
 * every planning) in `holidays-calendar`, and each day's bookings in `planningday-<type>-<YYYY-MM-DD>`,
 * so that two appointments racing for the last place of a slot conflict on one stream.
 */

export const planningSettings = z.object({
  planningType,
  /** Slot start times, HH:MM, in the planning's time zone. */
  slotTimes: z.array(localTime).min(1).max(48),
  capacityPerSlot: z.number().int().min(0).max(1000),
  /** ISO weekdays that are open: 1 = Monday ... 7 = Sunday. */
  workingDays: z.array(z.number().int().min(1).max(7)).max(7),
});
export type PlanningSettings = z.infer<typeof planningSettings>;

export const PlanningConfigured = defineEvent('PlanningConfigured', planningSettings.extend({ configuredAt: instant }));

export const HolidayDeclared = defineEvent('HolidayDeclared', z.object({ date: localDate, label: z.string().max(200).nullable(), declaredAt: instant }));

export const HolidayRemoved = defineEvent('HolidayRemoved', z.object({ date: localDate, removedAt: instant }));

export const PlanningSlotBooked = defineEvent(
  'PlanningSlotBooked',
  z.object({ planningType, date: localDate, time: localTime, booking: bookingRef, bookedAt: instant }),
);

export const PlanningSlotReleased = defineEvent(
  'PlanningSlotReleased',
  z.object({ planningType, date: localDate, time: localTime, booking: bookingRef, releasedAt: instant }),
);

export const planningEventDefinitions = [PlanningConfigured, HolidayDeclared, HolidayRemoved, PlanningSlotBooked, PlanningSlotReleased] as const;
export type PlanningEvent = EventsOf<typeof planningEventDefinitions>;

export const planningStreamName = (type: string): string => `planning-${type}`;
export const holidaysStreamName = 'holidays-calendar';
export const planningDayStreamName = (type: string, date: string): string => `planningday-${type}-${date}`;
