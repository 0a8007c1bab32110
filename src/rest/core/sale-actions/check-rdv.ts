import type { RouterMiddleware } from '@koa/router';
import { rdvTokenData } from '../../../events/access/mint-action-token.ts';
import type { Refusal } from '../../../events/decider.ts';
import type { Runtime } from '../../../runtime.ts';
import { deliveryAvailability } from './delivery-availability.ts';
import { deliverySlotRefusal } from './delivery-planning.ts';
import { refusalError } from './sale-action-errors.ts';
import { saleActionRequest, tokenData } from './sale-action-request.ts';

type RdvStatus = 'available' | 'scheduled' | 'unavailable' | 'not_schedulable';

const reasonOf = (refusal: Refusal) => ({ code: refusal.code, message: refusalError(refusal).message });

/**
 * GET /api/sale-rdv-check/{token}: whether the appointment the token carries can be booked, and the
 * free delivery days. It records nothing and leaves the token usable.
 * - `status`: `available` (POST would book it), `scheduled` (it is already the sale's appointment),
 *   `unavailable` (the planning refuses the slot: `reason` says why) or `not_schedulable` (the sale has
 *   nothing left to deliver);
 * - the slot is judged by the planning day's own rules, so `available` means what booking will decide;
 * - `available_dates` / `available_slots`: the free slots from today over the next 30 days.
 */
export const checkSaleRdv =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { payload, sale } = await saleActionRequest(runtime, ctx.params, 'rdv');
    const { date, time } = tokenData(rdvTokenData, payload);
    const current = sale.deliveryAppointment ? { date: sale.deliveryAppointment.date, time: sale.deliveryAppointment.time } : null;

    // Only a sale with something left to deliver can be given an appointment (the sale decider's rule).
    const schedulable = sale.status === 'processing';
    const alreadyScheduled = current?.date === date && current.time === time;
    const slotRefusal = alreadyScheduled
      ? null
      : await deliverySlotRefusal(runtime, { date, time, ref: { kind: 'sale', saleId: sale._id, incrementId: sale.incrementId } });
    const status: RdvStatus = !schedulable ? 'not_schedulable' : alreadyScheduled ? 'scheduled' : slotRefusal ? 'unavailable' : 'available';
    const reason = !schedulable
      ? { code: 'not_schedulable', message: 'The sale has nothing left to deliver: no appointment can be scheduled' }
      : slotRefusal && reasonOf(slotRefusal);
    const availability = await deliveryAvailability(runtime, current);

    ctx.body = {
      success: true,
      sale_id: sale._id,
      increment_id: sale.incrementId,
      status,
      appointment: { date, time },
      schedulable,
      slot_available: slotRefusal === null,
      reason: reason ?? null,
      current_appointment: current,
      available_dates: availability.dates,
      available_slots: availability.slots,
      range: availability.range,
      timezone: runtime.config.planningTimezone,
    };
  };
