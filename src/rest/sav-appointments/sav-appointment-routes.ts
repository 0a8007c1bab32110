import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import { scheduleSavAppointment, type SavAppointmentRequest } from '../../events/after-sales/sav-appointment.ts';
import type { Refusal } from '../../events/decider.ts';
import { localDateIn } from '../../events/planning/calendar-date.ts';
import type { Slot } from '../../events/planning/slot-booking.ts';
import { findSavById } from '../../projections/after-sales/queries.ts';
import type { SavDocument } from '../../projections/after-sales/sav-document.ts';
import { freeSlots } from '../../projections/planning/free-slots.ts';
import { findSaleByIncrementId } from '../../projections/sales/queries.ts';
import type { Runtime } from '../../runtime.ts';
import type { HttpError } from '../../http/http-error.ts';
import { noteWritten } from '../../http/read-your-writes.ts';
import { requestedDates } from '../core/sav/occupied-dates.ts';
import { parseInput } from '../parse-input.ts';
import { legacyQuery } from '../query-parameters.ts';

/**
 * A SAV's appointment, as the core group (staff) and the chatbot (the customer) see it: the free slots
 * of the SAV planning for a period, and booking or moving the appointment to one of them. Both groups
 * run the same handler (sav-appointment.ts: the new place taken with the planning day's expected
 * revision, so that of two requests for the last place one wins, then the move recorded, then the old
 * place given back) and word their answers and refusals themselves. A refusal records nothing.
 */

/** How each API group words the answers and refusals. */
export type AppointmentTexts = {
  invalid: (field: string, issue: z.core.$ZodIssue) => HttpError;
  invalidField: (field: string, message: string) => HttpError;
  savNotFound: (savId: number) => HttpError;
  /** A refusal of the SAV (its status) or of the planning (past day, full slot, closed day, holiday, unknown slot). */
  refused: (savId: number, refusal: Refusal, slot: Slot) => HttpError;
  /** The answer's message: the appointment booked, moved, or unchanged. */
  answered: (savId: number, status: 'scheduled' | 'unchanged', slot: Slot, previous: Slot | null) => string;
};

type SlotsQuery = { start_date?: string; end_date?: string; email?: string };
type MoveBody = SavAppointmentRequest & { email?: string };

export type AppointmentRoutes = {
  texts: AppointmentTexts;
  savId: z.ZodType<number, unknown>;
  slotsQuery: z.ZodType<SlotsQuery, unknown>;
  body: z.ZodType<MoveBody, unknown>;
  /** Whether the request may see this SAV; a SAV it may not see is answered as unknown. */
  mayAccess: (sav: SavDocument, given: { email?: string }) => Promise<boolean>;
  /** The name of the path parameter holding the SAV ID. */
  param: string;
};

/** The chatbot's rule: the e-mail given is the SAV's requester's or its order's customer's, in any case. */
export const customerOf =
  (runtime: Runtime) =>
  async (sav: SavDocument, given: { email?: string }): Promise<boolean> => {
    const email = given.email?.toLowerCase();
    if (email === undefined) return false;
    if (sav.customerEmailLower === email) return true;
    const sale = await findSaleByIncrementId(runtime.readStore, sav.incrementId);
    return sale?.customer.emailLower === email;
  };

const savOf = async (runtime: Runtime, routes: AppointmentRoutes, params: Record<string, string>, given: { email?: string }): Promise<SavDocument> => {
  const savId = parseInput(routes.savId, params[routes.param], (_field, issue) => routes.texts.invalid(routes.param, issue));
  const sav = await findSavById(runtime.readStore, savId);
  if (!sav || !(await routes.mayAccess(sav, given))) throw routes.texts.savNotFound(savId);
  return sav;
};

const presentSlot = (slot: { date: string; time: string } | null) => (slot ? { date: slot.date, time: slot.time } : null);

/** GET: the slots of the SAV planning with a place left, day by day, for the period asked (from today at the earliest). */
export const appointmentSlots =
  (runtime: Runtime, routes: AppointmentRoutes): RouterMiddleware =>
  async (ctx) => {
    const query = parseInput(routes.slotsQuery, legacyQuery(ctx.query), routes.texts.invalid);
    const sav = await savOf(runtime, routes, ctx.params, query);
    const timezone = runtime.config.planningTimezone;
    const today = localDateIn(runtime.clock.now(), timezone);
    const requested = requestedDates({ start_date: query.start_date, end_date: query.end_date }, today);
    if ('field' in requested) throw routes.texts.invalidField(requested.field, requested.message);
    const slots = await freeSlots(runtime.readStore, { planningType: 'sav', from: requested.start, to: requested.end, today, savId: sav._id });
    ctx.body = {
      success: true,
      sav_id: sav._id,
      sav_status: sav.status,
      appointment: presentSlot(sav.appointment),
      range: { start: requested.start, end: requested.end },
      timezone,
      slots,
    };
  };

/** POST: books the SAV's appointment on a slot, or moves it there, giving the old place back. */
export const moveAppointment = (runtime: Runtime, routes: AppointmentRoutes): RouterMiddleware => {
  const deps = runtime.planning;
  return async (ctx) => {
    const { email, ...request } = parseInput(routes.body, ctx.request.body ?? {}, routes.texts.invalid);
    const sav = await savOf(runtime, routes, ctx.params, { email });
    const slot = { date: request.date, time: request.time };
    const result = await scheduleSavAppointment(deps, { savId: sav._id, ...request }, ctx.state.commandContext);
    if (result.status === 'refused') throw routes.texts.refused(sav._id, result.refusal, slot);
    const previous = result.status === 'scheduled' ? result.previous : null;
    if (result.status === 'scheduled') noteWritten(ctx.state, result.written);
    ctx.body = {
      success: true,
      message: routes.texts.answered(sav._id, result.status, slot, previous),
      sav_id: sav._id,
      status: result.status,
      appointment: slot,
      previous_appointment: previous,
    };
  };
};
