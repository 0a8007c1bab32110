import { recordedNothing } from '../recorded-nothing.ts';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, writtenTogether, type Written } from '../command-handler.ts';
import { fold, Refusal } from '../decider.ts';
import { readDomainStream } from '../domain-store.ts';
import type { PlanningDeps } from '../planning/planning-handlers.ts';
import { bookSlot, releaseSlot, sameSlot, type Slot } from '../planning/slot-booking.ts';
import { savStreamName, type SavEvent } from './events.ts';
import type { SavAppointment } from './sav-commands.ts';
import { savDecider } from './sav-decider.ts';
import type { SavRefusalCode } from './sav-refusals.ts';
import type { SavState } from './sav-state.ts';

export type ScheduleSavAppointmentResult =
  { status: 'scheduled'; previous: Slot | null; written?: Written } | { status: 'unchanged' } | { status: 'refused'; refusal: Refusal };

/** The appointment asked for; a phone or comment left undefined keeps the one the appointment has (a move keeps them). */
export type SavAppointmentRequest = { date: string; time: string; phone?: string | null; comment?: string | null };

const heldSlot = (state: SavState): Slot | null => (state.exists && state.appointment ? { date: state.appointment.date, time: state.appointment.time } : null);

const readSav = async (deps: PlanningDeps, savId: number): Promise<SavState> =>
  fold(savDecider, (await readDomainStream<SavEvent>(deps.eventStore, savStreamName(savId))).events);

/**
 * Schedules or moves a SAV's appointment: the new place is taken first (a full slot leaves the
 * appointment where it was), the appointment recorded, then the replaced place given back, as the
 * recorded event names it. When the recording does not happen, the new place goes back only if this
 * request took it, the SAV surely does not hold it, and the failure surely recorded nothing
 * (recorded-nothing.ts): a racing request for the same slot, or an append that may have landed, keeps it.
 * A SAV whose status refuses an appointment (resolved, closed, cancelled) is refused before any place
 * is taken, so that the refusal records nothing; a reopened SAV, in progress again, books anew.
 */
export const scheduleSavAppointment = async (
  deps: PlanningDeps,
  input: { savId: number } & SavAppointmentRequest,
  context: CommandContext,
): Promise<ScheduleSavAppointmentResult> => {
  const { savId, date, time } = input;
  const current = await readSav(deps, savId);
  if (!current.exists) return { status: 'refused', refusal: new Refusal<SavRefusalCode>('unknown_sav', 'No SAV with this ID', { savId }) };
  const appointment: SavAppointment = {
    date,
    time,
    phone: input.phone === undefined ? (current.appointment?.phone ?? null) : input.phone,
    comment: input.comment === undefined ? (current.appointment?.comment ?? null) : input.comment,
  };
  const command = { type: 'ScheduleSavAppointment' as const, ...appointment, at: deps.clock.now().toISOString() };
  const allowed = savDecider.decide(command, current);
  if (allowed instanceof Refusal) return { status: 'refused', refusal: allowed };

  const ref = { kind: 'sav' as const, savId };
  const slot = { date: appointment.date, time: appointment.time };
  const booked = await bookSlot(deps, { planningType: 'sav', ...slot, ref }, context);
  if (!booked.ok) return { status: 'refused', refusal: booked.refusal };
  const giveBackNew = async (state: SavState) => {
    if (booked.took && !sameSlot(heldSlot(state), slot)) await releaseSlot(deps, { planningType: 'sav', ...slot, ref }, context);
  };

  let outcome;
  try {
    outcome = await handleCommand(deps, savStreamName(savId), savDecider, command, context);
  } catch (error) {
    // Should reading or releasing fail too, the place stays held: the lesser harm, as above.
    if (recordedNothing(error))
      await readSav(deps, savId)
        .then(giveBackNew)
        .catch(() => undefined);
    throw error;
  }
  if (outcome.status !== 'accepted') {
    await giveBackNew(outcome.state);
    return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'unchanged' };
  }
  const scheduled = outcome.events.find((event) => event.type === 'SavAppointmentScheduled');
  const replaced = scheduled?.type === 'SavAppointmentScheduled' ? scheduled.data.previous : null;
  const released = replaced && !sameSlot(replaced, slot) ? await releaseSlot(deps, { planningType: 'sav', ...replaced, ref }, context) : undefined;
  return { status: 'scheduled', previous: replaced, written: writtenTogether(booked.written, writtenBy(outcome), released?.written) };
};
