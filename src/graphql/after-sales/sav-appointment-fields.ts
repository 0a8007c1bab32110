import { z } from 'zod';
import type { Slot } from '../../events/planning/slot-booking.ts';
import { scheduleSavAppointment } from '../../events/after-sales/sav-appointment.ts';
import { addDays, localDateIn } from '../../events/planning/calendar-date.ts';
import { findSavById } from '../../projections/after-sales/queries.ts';
import type { SavDocument } from '../../projections/after-sales/sav-document.ts';
import { freeSlots, type FreeSlot } from '../../projections/planning/free-slots.ts';
import { noteWritten, seeWritten } from '../../http/read-your-writes.ts';
import { builder } from '../builder.ts';
import type { GraphqlContext } from '../context.ts';
import { daysOf } from '../cost.ts';
import { badUserInput, notFound, refused } from '../errors.ts';
import { SavSlotRef } from './sav-mutations.ts';
import { SavRef } from './sav-type.ts';

/**
 * A SAV's appointment for staff, through the same reads and handler as GET /api/sale-sav/{id}/appointment/slots
 * and POST /api/sale-sav/{id}/appointment: the free slots of the SAV planning, and booking or moving the appointment.
 */

const maxDays = 366;

const FreeSlotRef = builder.objectRef<FreeSlot>('FreeSlot').implement({
  description: 'A slot of the SAV planning with a place left (the SAV asked about does not count its own place).',
  fields: (t) => ({
    date: t.expose('date', { type: 'LocalDate' }),
    time: t.exposeString('time'),
    free: t.exposeInt('free', { description: 'Places left.' }),
    capacity: t.exposeInt('capacity', { description: 'Places per slot.' }),
  }),
});

builder.queryField('savFreeSlots', (t) =>
  t.field({
    type: [FreeSlotRef],
    description: `The slots of the SAV planning with a place left from \`from\` to \`to\` (inclusive, at most ${maxDays} days; no day before today), for moving a SAV's appointment.`,
    args: {
      savId: t.arg.int({ required: true }),
      from: t.arg({ type: 'LocalDate', required: true }),
      to: t.arg({ type: 'LocalDate', required: true }),
    },
    complexity: (args) => ({ field: 1 + daysOf(args), multiplier: daysOf(args) }),
    resolve: async (_root, { savId, from, to }, { runtime }) => {
      if (to < from) throw badUserInput('to', `must not be before from (${from})`);
      if (to > addDays(from, maxDays - 1)) throw badUserInput('to', `the range must not exceed ${maxDays} days`);
      if (!(await findSavById(runtime.readStore, savId))) throw notFound(`SAV ${savId}`);
      const today = localDateIn(runtime.clock.now(), runtime.config.planningTimezone);
      return freeSlots(runtime.readStore, { planningType: 'sav', from, to, today, savId });
    },
  }),
);

type SavAppointmentMove = { status: string; sav: SavDocument; previousAppointment: Slot | null };

const SavAppointmentMoveRef = builder.objectRef<SavAppointmentMove>('SavAppointmentMove').implement({
  description: "A SAV's appointment booked or moved: the SAV as it now stands and the slot given back, if any.",
  fields: (t) => ({
    status: t.exposeString('status', { description: 'scheduled, or unchanged when the SAV already had this appointment.' }),
    sav: t.expose('sav', { type: SavRef }),
    previousAppointment: t.expose('previousAppointment', { type: SavSlotRef, nullable: true, description: 'The slot given back to the planning.' }),
  }),
});

const note = (max: number) => z.string().trim().max(max).nullable().optional();

builder.mutationField('moveSavAppointment', (t) =>
  t.field({
    type: SavAppointmentMoveRef,
    authScopes: { staff: true },
    description:
      "Books a SAV's appointment on a slot of the SAV planning, or moves it there (the old place given back); a phone or comment not given keeps the appointment's own. Refused: UNKNOWN_SAV, SAV_STATUS_CONFLICT, SLOT_FULL, IN_THE_PAST, HOLIDAY, CLOSED_DAY, UNKNOWN_SLOT; a refusal records nothing.",
    args: {
      savId: t.arg.int({ required: true }),
      date: t.arg({ type: 'LocalDate', required: true }),
      time: t.arg.string({ required: true, description: 'HH:MM, one of the planning slot times.' }),
      phone: t.arg.string(),
      comment: t.arg.string(),
    },
    resolve: async (_root, { savId, date, time, phone, comment }, context: GraphqlContext) => {
      const phoneText = note(32).safeParse(phone);
      if (!phoneText.success) throw badUserInput('phone', 'must be a text of at most 32 characters');
      const commentText = note(2000).safeParse(comment);
      if (!commentText.success) throw badUserInput('comment', 'must be a text of at most 2000 characters');
      const result = await scheduleSavAppointment(
        context.runtime.planning,
        { savId, date, time, phone: phoneText.data, comment: commentText.data },
        context.commandContext,
      );
      if (result.status === 'refused') throw refused(result.refusal);
      const written = result.status === 'scheduled' ? result.written : undefined;
      noteWritten(context.writes, written);
      await seeWritten(context.runtime.projections, written);
      const sav = await findSavById(context.runtime.readStore, savId);
      if (!sav) throw new Error(`SAV ${savId} scheduled but absent from the read model`);
      return { status: result.status, sav, previousAppointment: result.status === 'scheduled' ? result.previous : null };
    },
  }),
);
