import type { z } from 'zod';
import type { SavSlot } from '../../events/after-sales/sav-state.ts';
import { cancelSav, closeSav, reopenSav, resolveSav, type SavTransitionResult } from '../../events/after-sales/sav-lifecycle.ts';
import type { SavDocument } from '../../projections/after-sales/sav-document.ts';
import { findSavById } from '../../projections/after-sales/queries.ts';
import { cancelSavBody, reopenSavBody, resolveSavBody } from '../../contracts/sav-status-changes.ts';
import { noteWritten, seeWritten } from '../../http/read-your-writes.ts';
import { builder } from '../builder.ts';
import type { GraphqlContext } from '../context.ts';
import { badUserInput, refused } from '../errors.ts';
import { SavRef } from './sav-type.ts';

/** The status changes of a SAV, for staff, through the same handlers as POST /api/sale-sav/{id}/resolve|close|reopen|cancel. */

type SavChange = { status: string; sav: SavDocument; releasedAppointment: SavSlot | null };

export const SavSlotRef = builder.objectRef<SavSlot>('SavSlot').implement({
  fields: (t) => ({ date: t.expose('date', { type: 'LocalDate' }), time: t.exposeString('time') }),
});

const SavChangeRef = builder.objectRef<SavChange>('SavChange').implement({
  description: 'A status change recorded: what it did, the SAV as it now stands, and the appointment given back to the planning if any.',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'resolved, closed, reopened or cancelled.' }),
    sav: t.expose('sav', { type: SavRef }),
    releasedAppointment: t.expose('releasedAppointment', {
      type: SavSlotRef,
      nullable: true,
      description: 'Closing or cancelling gives back the appointment unless its day is past.',
    }),
  }),
});

/** The text of an argument, checked by the REST body's own schema (trimmed, 1 to 2000 characters). */
const textArg = (schema: z.ZodType<string>, field: string, value: string): string => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badUserInput(field, parsed.error.issues[0]!.message);
  return parsed.data;
};

const answered = async (context: GraphqlContext, savId: number, result: SavTransitionResult): Promise<SavChange> => {
  if (result.status === 'refused') throw refused(result.refusal);
  noteWritten(context.writes, result.written);
  // The SAV as it now stands: once the read models have applied the change.
  await seeWritten(context.runtime.projections, result.written);
  const sav = await findSavById(context.runtime.readStore, savId);
  if (!sav) throw new Error(`SAV ${savId} changed but absent from the read model`);
  return { status: result.status, sav, releasedAppointment: result.releasedAppointment };
};

const refusals = 'Refused: UNKNOWN_SAV, SAV_STATUS_CONFLICT (details: status, allowedFrom); FORBIDDEN without a core token.';

builder.mutationField('resolveSav', (t) =>
  t.field({
    type: SavChangeRef,
    authScopes: { staff: true },
    description: `A SAV in progress is resolved with what was done (shown to the customer by the chatbot). ${refusals}`,
    args: { savId: t.arg.int({ required: true }), resolution: t.arg.string({ required: true }) },
    resolve: async (_root, { savId, resolution }, context: GraphqlContext) => {
      const text = textArg(resolveSavBody.shape.resolution, 'resolution', resolution);
      return answered(context, savId, await resolveSav(context.runtime.planning, { savId, resolution: text }, context.commandContext));
    },
  }),
);

builder.mutationField('closeSav', (t) =>
  t.field({
    type: SavChangeRef,
    authScopes: { staff: true },
    description: `A resolved SAV is closed; its appointment, unless past, is given back. ${refusals}`,
    args: { savId: t.arg.int({ required: true }) },
    resolve: async (_root, { savId }, context: GraphqlContext) => {
      return answered(context, savId, await closeSav(context.runtime.planning, { savId }, context.commandContext));
    },
  }),
);

builder.mutationField('reopenSav', (t) =>
  t.field({
    type: SavChangeRef,
    authScopes: { staff: true },
    description: `A resolved or closed SAV is in progress again, with why. ${refusals}`,
    args: { savId: t.arg.int({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: async (_root, { savId, reason }, context: GraphqlContext) => {
      const text = textArg(reopenSavBody.shape.reason, 'reason', reason);
      return answered(context, savId, await reopenSav(context.runtime.planning, { savId, reason: text }, context.commandContext));
    },
  }),
);

builder.mutationField('cancelSav', (t) =>
  t.field({
    type: SavChangeRef,
    authScopes: { staff: true },
    description: `A SAV in progress is cancelled for good, with why; its appointment, unless past, is given back. ${refusals}`,
    args: { savId: t.arg.int({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: async (_root, { savId, reason }, context: GraphqlContext) => {
      const text = textArg(cancelSavBody.shape.reason, 'reason', reason);
      return answered(context, savId, await cancelSav(context.runtime.planning, { savId, reason: text }, context.commandContext));
    },
  }),
);
