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

export type ScheduleSavAppointmentResult = { status: 'scheduled' | 'unchanged'; written?: Written } | { status: 'refused'; refusal: Refusal };

const heldSlot = (state: SavState): Slot | null => (state.exists ? state.appointment : null);

const readSav = async (deps: PlanningDeps, savId: number): Promise<SavState> =>
  fold(savDecider, (await readDomainStream<SavEvent>(deps.eventStore, savStreamName(savId))).events);

/**
 * Schedules or moves a SAV's appointment: the new place is taken first (a full slot leaves the
 * appointment where it was), the appointment recorded, then the replaced place given back, as the
 * recorded event names it. When the recording does not happen, the new place goes back only if this
 * request took it, the SAV surely does not hold it, and the failure surely recorded nothing
 * (recorded-nothing.ts): a racing request for the same slot, or an append that may have landed, keeps it.
 */
export const scheduleSavAppointment = async (
  deps: PlanningDeps,
  input: { savId: number } & SavAppointment,
  context: CommandContext,
): Promise<ScheduleSavAppointmentResult> => {
  const { savId, ...appointment } = input;
  const current = await readSav(deps, savId);
  if (!current.exists) return { status: 'refused', refusal: new Refusal<SavRefusalCode>('unknown_sav', 'No SAV with this ID', { savId }) };

  const ref = { kind: 'sav' as const, savId };
  const slot = { date: appointment.date, time: appointment.time };
  const booked = await bookSlot(deps, { planningType: 'sav', ...slot, ref }, context);
  if (!booked.ok) return { status: 'refused', refusal: booked.refusal };
  const giveBackNew = async (state: SavState) => {
    if (booked.took && !sameSlot(heldSlot(state), slot)) await releaseSlot(deps, { planningType: 'sav', ...slot, ref }, context);
  };

  const command = { type: 'ScheduleSavAppointment' as const, ...appointment, at: deps.clock.now().toISOString() };
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
  const previous = scheduled?.type === 'SavAppointmentScheduled' ? scheduled.data.previous : null;
  const released = previous && !sameSlot(previous, slot) ? await releaseSlot(deps, { planningType: 'sav', ...previous, ref }, context) : undefined;
  return { status: 'scheduled', written: writtenTogether(booked.written, writtenBy(outcome), released?.written) };
};
