import type { BookingRef, PlanningType } from '../schema/common-schemas.ts';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type WriteDeps, type Written } from '../command-handler.ts';
import { fold, Refusal } from '../decider.ts';
import { readDomainStream } from '../domain-store.ts';
import type { EventStore } from '../store/event-store.ts';
import { localDateIn } from './calendar-date.ts';
import { planningDayStreamName } from './events.ts';
import { holidaysBetween } from './holidays-decider.ts';
import { occupancyOf, planningDayDecider, type PlanningDayEvent } from './planning-day-decider.ts';
import { loadPlanning, type PlanningDeps } from './planning-handlers.ts';

/**
 * Booking and releasing a place in a planning, for whoever holds appointments (a SAV, a sale's
 * delivery). The planning day and the appointment's owner are two streams: an appointment moved to
 * another slot takes the new place first, then the owner records the move, and only then is the old
 * place given back (by the owner's handler, from the recorded event), so that a full new slot or a
 * failed recording leaves the appointment where it was, with its place.
 */

export type Slot = { date: string; time: string };

export type BookSlotInput = { planningType: PlanningType; date: string; time: string; ref: BookingRef };
/**
 * `took`: whether this booking took the place; false when the booking already held it (a retry, or a
 * racing request of the same owner for the same slot), in which case it is not this request's to give back.
 */
export type BookSlotResult = { ok: true; took: boolean; written?: Written } | { ok: false; refusal: Refusal };

export const sameSlot = (left: Slot | null | undefined, right: Slot): boolean => !!left && left.date === right.date && left.time === right.time;

/** The BookSlot command of a booking: the planning's settings and holidays as they stand, today in its time zone. */
const bookingCommand = async (deps: PlanningDeps, input: BookSlotInput) => {
  const { planningType, date, time, ref } = input;
  const { settings, declaredHolidays } = await loadPlanning(deps, planningType);
  const now = deps.clock.now();
  return {
    type: 'BookSlot' as const,
    planningType,
    date,
    time,
    booking: ref,
    settings,
    holidays: new Set(holidaysBetween(declaredHolidays, date, date).map((holiday) => holiday.date)),
    today: localDateIn(now, deps.timezone),
    at: now.toISOString(),
  };
};

export const bookSlot = async (deps: PlanningDeps, input: BookSlotInput, context: CommandContext): Promise<BookSlotResult> => {
  const command = await bookingCommand(deps, input);
  const outcome = await handleCommand(deps, planningDayStreamName(input.planningType, input.date), planningDayDecider, command, context);
  if (outcome.status === 'refused') return { ok: false, refusal: outcome.refusal };
  return { ok: true, took: outcome.status === 'accepted', written: writtenBy(outcome) };
};

/**
 * Whether the booking would be accepted now, recording nothing: lets a caller refuse a request before
 * it spends anything on it (an ID). The booking itself still decides, since places can go meanwhile.
 */
export const checkSlot = async (deps: PlanningDeps, input: BookSlotInput): Promise<{ ok: true } | { ok: false; refusal: Refusal }> => {
  const command = await bookingCommand(deps, input);
  const { events } = await readDomainStream<PlanningDayEvent>(deps.eventStore, planningDayStreamName(input.planningType, input.date));
  const decision = planningDayDecider.decide(command, fold(planningDayDecider, events));
  return decision instanceof Refusal ? { ok: false, refusal: decision } : { ok: true };
};

export type ReleaseSlotInput = { planningType: PlanningType; date: string; time: string; ref: BookingRef };

/** Gives the place back; releasing a place that is not held records nothing (`released: false`). */
export const releaseSlot = async (
  deps: WriteDeps,
  input: ReleaseSlotInput,
  context: CommandContext,
): Promise<{ ok: true; released: boolean; written?: Written }> => {
  const { planningType, date, time, ref } = input;
  const command = { type: 'ReleaseSlot' as const, planningType, date, time, booking: ref, at: deps.clock.now().toISOString() };
  const outcome = await handleCommand(deps, planningDayStreamName(planningType, date), planningDayDecider, command, context);
  return { ok: true, released: outcome.status === 'accepted', written: writtenBy(outcome) };
};

/** Places taken per slot time on one day of a planning, read from its stream. */
export const loadDayOccupancy = async (deps: { eventStore: EventStore }, planningType: PlanningType, date: string): Promise<Record<string, number>> => {
  const { events } = await readDomainStream<PlanningDayEvent>(deps.eventStore, planningDayStreamName(planningType, date));
  return occupancyOf(fold(planningDayDecider, events));
};
