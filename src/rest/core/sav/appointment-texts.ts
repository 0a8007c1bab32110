import type { AppointmentRoutes } from '../../sav-appointments/sav-appointment-routes.ts';
import { appointmentBody, appointmentSlotsQuery, savIdParams } from './schemas.ts';
import { appointmentRefused, invalidField, invalidRequest, savChangeRefused, savNotFound } from './sav-errors.ts';

/**
 * GET /api/sale-sav/{id}/appointment/slots and POST /api/sale-sav/{id}/appointment, for staff: any
 * SAV, its refusals in the core envelope (404 unknown SAV, 409 with the planning's or the status's code).
 */
export const coreAppointmentRoutes: AppointmentRoutes = {
  param: 'id',
  savId: savIdParams.shape.id,
  slotsQuery: appointmentSlotsQuery,
  body: appointmentBody,
  mayAccess: async () => true,
  texts: {
    invalid: invalidRequest,
    invalidField,
    savNotFound,
    refused: (savId, refusal, slot) =>
      refusal.code === 'unknown_sav' || refusal.code === 'sav_status_conflict' ? savChangeRefused(savId, refusal) : appointmentRefused(refusal, slot),
    answered: (savId, status, slot, previous) => {
      const at = `${slot.date} at ${slot.time}`;
      if (status === 'unchanged') return `SAV ${savId} already has its appointment on ${at}`;
      return previous ? `SAV ${savId}'s appointment moved from ${previous.date} at ${previous.time} to ${at}` : `SAV ${savId}'s appointment booked on ${at}`;
    },
  },
};
