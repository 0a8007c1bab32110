import type { CommandContext } from '../command-context.ts';
import { handleCommand } from '../command-handler.ts';
import { fold, Refusal } from '../decider.ts';
import { readDomainStream } from '../domain-store.ts';
import type { PlanningDeps } from '../planning/planning-handlers.ts';
import { bookSlot, releaseSlot, type Slot } from '../planning/slot-booking.ts';
import { savStreamName, type SavEvent } from './events.ts';
import { savDecider, type SavAppointment, type SavRefusalCode, type SavState } from './sav-decider.ts';

export type ScheduleSavAppointmentResult = { status: 'scheduled' | 'unchanged' } | { status: 'refused'; refusal: Refusal };

const sameSlot = (left: Slot | null | undefined, right: Slot): boolean => !!left && left.date === right.date && left.time === right.time;
const heldSlot = (state: SavState): Slot | null => (state.exists ? state.appointment : null);

/**
 * Schedules or moves a SAV's appointment: the new place is taken first (a full slot leaves the
 * appointment where it was), the appointment recorded, then the replaced place given back.
 */
export const scheduleSavAppointment = async (
  deps: PlanningDeps,
  input: { savId: number } & SavAppointment,
  context: CommandContext,
): Promise<ScheduleSavAppointmentResult> => {
  const { savId, ...appointment } = input;
  const streamName = savStreamName(savId);
  const current = fold(savDecider, (await readDomainStream<SavEvent>(deps.eventStore, streamName)).events);
  if (!current.exists) return { status: 'refused', refusal: new Refusal<SavRefusalCode>('unknown_sav', 'No SAV with this ID', { savId }) };

  const ref = { kind: 'sav' as const, savId };
  const slot = { date: appointment.date, time: appointment.time };
  const booked = await bookSlot(deps, { planningType: 'sav', ...slot, ref }, context);
  if (!booked.ok) return { status: 'refused', refusal: booked.refusal };
  // Undoes the booking unless the SAV already held that place before this command.
  const giveBackNew = async (state: SavState) => {
    if (!sameSlot(heldSlot(state), slot)) await releaseSlot(deps, { planningType: 'sav', ...slot, ref }, context);
  };

  const command = { type: 'ScheduleSavAppointment' as const, ...appointment, at: deps.clock.now().toISOString() };
  try {
    const outcome = await handleCommand(deps, streamName, savDecider, command, context);
    if (outcome.status === 'refused') {
      await giveBackNew(outcome.state);
      return { status: 'refused', refusal: outcome.refusal };
    }
    if (outcome.status === 'unchanged') return { status: 'unchanged' };
    const scheduled = outcome.events.find((event) => event.type === 'SavAppointmentScheduled');
    const previous = scheduled?.type === 'SavAppointmentScheduled' ? scheduled.data.previous : null;
    if (previous && !sameSlot(previous, slot)) await releaseSlot(deps, { planningType: 'sav', ...previous, ref }, context);
    return { status: 'scheduled' };
  } catch (error) {
    await giveBackNew(current);
    throw error;
  }
};
