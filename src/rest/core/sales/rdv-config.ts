import { addDays, isoWeekday } from '../../../events/planning/calendar-date.ts';
import type { SaleDocument } from '../../../projections/sales/sale-document.ts';
import type { DeliveryPlanningWindow } from './delivery-planning-reads.ts';
import { presentDeliveryAppointment } from './sale-presenter.ts';

/**
 * A sale's delivery appointment configuration: the open days of the delivery planning from today on,
 * each slot with its capacity and free places, and the appointment the sale holds. Holidays and the
 * planning's closed weekdays are left out of `dates`. The slot the sale already holds counts among the
 * booked places, yet stays available to this sale (`current`), since keeping it is always possible.
 */

/** Today and the 30 days after it, the window of the SAV planning's occupancy by default too. */
export const rdvWindowDays = 30;

export type RdvWindow = { today: string; timezone: string };

const presentSlot = (time: string, capacity: number, booked: number, current: boolean) => {
  const free = Math.max(capacity - booked, 0);
  return { time, capacity, booked, free, full: free === 0, current };
};

export const rdvConfig = (sale: SaleDocument, planning: DeliveryPlanningWindow, window: RdvWindow) => {
  const { settings, holidays, occupied } = planning;
  const end = addDays(window.today, rdvWindowDays);
  const holidayDates = new Set(holidays.map((holiday) => holiday.date));
  const held = sale.deliveryAppointment;

  const dates = [];
  for (let date = window.today; date <= end; date = addDays(date, 1)) {
    if (!settings.workingDays.includes(isoWeekday(date)) || holidayDates.has(date)) continue;
    const slots = settings.slotTimes.map((time) =>
      presentSlot(time, settings.capacityPerSlot, occupied[date]?.[time] ?? 0, held?.date === date && held.time === time),
    );
    dates.push({ date, weekday: isoWeekday(date), available: slots.some((slot) => !slot.full || slot.current), slots });
  }

  return {
    sale_id: sale._id,
    increment_id: sale.incrementId,
    status: sale.status,
    planning_type: 'delivery' as const,
    timezone: window.timezone,
    requires_appointment: sale.products.some((product) => product.requiresAppointment && product.state !== 'cancelled'),
    range: { start: window.today, end },
    configuration: {
      slot_times: settings.slotTimes,
      capacity_per_slot: settings.capacityPerSlot,
      working_days: settings.workingDays,
    },
    holidays: holidays.map((holiday) => holiday.date),
    available_dates: dates.filter((day) => day.available).map((day) => day.date),
    dates,
    current_appointment: presentDeliveryAppointment(sale),
  };
};
