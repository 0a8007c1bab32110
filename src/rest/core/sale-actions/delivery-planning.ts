import type { BookingRef } from '../../../events/schema/common-schemas.ts';
import { fold, isRefusal, type Refusal } from '../../../events/decider.ts';
import { readDomainStream } from '../../../events/domain-store.ts';
import { localDateIn } from '../../../events/planning/calendar-date.ts';
import { planningDayStreamName } from '../../../events/planning/events.ts';
import { holidaysBetween } from '../../../events/planning/holidays-decider.ts';
import { planningDayDecider, type BookSlot, type PlanningDayEvent } from '../../../events/planning/planning-day-decider.ts';
import { loadPlanning } from '../../../events/planning/planning-handlers.ts';
import { bookSlot, releaseSlot } from '../../../events/planning/slot-booking.ts';
import type { DeliveryAppointmentDeps } from '../../../events/sales/delivery-appointment.ts';
import type { Runtime } from '../../../runtime.ts';

/** The delivery planning, as the sale actions use it. */

/** The sale's appointment handler on the runtime: its places are held in the `delivery` planning. */
export const deliveryAppointmentDeps = (runtime: Runtime): DeliveryAppointmentDeps => {
  const { planning } = runtime;
  return {
    ...runtime.salesDeps,
    bookSlot: (booking, context) => bookSlot(planning, booking, context),
    releaseSlot: (booking, context) => releaseSlot(runtime.write, booking, context),
  };
};

/**
 * Why the delivery planning would refuse this booking now (full, holiday, closed day, no such slot,
 * past day), or null: the planning day's own decision, built as bookSlot builds it, with nothing recorded.
 * A place the booking already holds is not refused.
 */
export const deliverySlotRefusal = async (runtime: Runtime, slot: { date: string; time: string; ref: BookingRef }): Promise<Refusal | null> => {
  const { settings, declaredHolidays } = await loadPlanning(runtime, 'delivery');
  const now = runtime.clock.now();
  const command: BookSlot = {
    type: 'BookSlot',
    planningType: 'delivery',
    date: slot.date,
    time: slot.time,
    booking: slot.ref,
    settings,
    holidays: new Set(holidaysBetween(declaredHolidays, slot.date, slot.date).map((holiday) => holiday.date)),
    today: localDateIn(now, runtime.config.planningTimezone),
    at: now.toISOString(),
  };
  const { events } = await readDomainStream<PlanningDayEvent>(runtime.eventStore, planningDayStreamName('delivery', slot.date));
  const decision = planningDayDecider.decide(command, fold(planningDayDecider, events));
  return isRefusal(decision) ? decision : null;
};
