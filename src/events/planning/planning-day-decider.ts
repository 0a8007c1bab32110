import type { BookingRef, PlanningType } from '../schema/common-schemas.ts';
import { assertNever, Refusal, type Decider } from '../decider.ts';
import { isoWeekday } from './calendar-date.ts';
import type { PlanningEvent, PlanningSettings } from './events.ts';

/**
 * The bookings of one planning day, stream `planningday-<type>-<YYYY-MM-DD>`. All the slots of a day
 * share one stream so that two bookings racing for the last place conflict on its revision: the
 * loser decides again against the day it lost to.
 */

export type BookSlot = {
  type: 'BookSlot';
  planningType: PlanningType;
  date: string;
  time: string;
  booking: BookingRef;
  /** The planning's settings and the holidays (dates) around `date`, resolved by the handler. */
  settings: PlanningSettings;
  holidays: ReadonlySet<string>;
  /** Today's date in the planning's time zone. */
  today: string;
  at: string;
};
export type ReleaseSlot = { type: 'ReleaseSlot'; planningType: PlanningType; date: string; time: string; booking: BookingRef; at: string };
export type PlanningDayCommand = BookSlot | ReleaseSlot;

export type PlanningDayEvent = Extract<PlanningEvent, { type: 'PlanningSlotBooked' | 'PlanningSlotReleased' }>;

/** The places held on the day, in booking order. */
export type PlanningDayState = { held: readonly { time: string; booking: BookingRef }[] };

export type PlanningDayRefusalCode = 'closed_day' | 'holiday' | 'unknown_slot' | 'slot_full' | 'in_the_past';

export const sameBooking = (left: BookingRef, right: BookingRef): boolean => {
  switch (left.kind) {
    case 'sav':
      return right.kind === 'sav' && right.savId === left.savId;
    case 'sale':
      return right.kind === 'sale' && right.saleId === left.saleId;
    default:
      return assertNever(left);
  }
};

const holds = (state: PlanningDayState, time: string, booking: BookingRef): boolean =>
  state.held.some((place) => place.time === time && sameBooking(place.booking, booking));

/** Places taken per slot time; a time with no booking is absent. */
export const occupancyOf = (state: PlanningDayState): Record<string, number> => {
  const occupancy: Record<string, number> = {};
  for (const { time } of state.held) occupancy[time] = (occupancy[time] ?? 0) + 1;
  return occupancy;
};

const book = (command: BookSlot, state: PlanningDayState): PlanningDayEvent[] | Refusal<PlanningDayRefusalCode> => {
  const { planningType, date, time, booking, settings } = command;
  // A retry of a booking that went through records nothing and is not refused for what changed since.
  if (holds(state, time, booking)) return [];
  if (date < command.today) return new Refusal('in_the_past', 'The day is in the past', { date, today: command.today });
  if (!settings.workingDays.includes(isoWeekday(date))) return new Refusal('closed_day', 'The planning is closed on this weekday', { date });
  if (command.holidays.has(date)) return new Refusal('holiday', 'The day is a holiday', { date });
  if (!settings.slotTimes.includes(time)) return new Refusal('unknown_slot', 'There is no slot at this time', { time, slotTimes: settings.slotTimes });
  const taken = occupancyOf(state)[time] ?? 0;
  if (taken >= settings.capacityPerSlot) return new Refusal('slot_full', 'The slot is full', { date, time, capacity: settings.capacityPerSlot });
  return [{ type: 'PlanningSlotBooked', data: { planningType, date, time, booking, bookedAt: command.at } }];
};

const release = (command: ReleaseSlot, state: PlanningDayState): PlanningDayEvent[] => {
  const { planningType, date, time, booking } = command;
  if (!holds(state, time, booking)) return [];
  return [{ type: 'PlanningSlotReleased', data: { planningType, date, time, booking, releasedAt: command.at } }];
};

export const planningDayDecider: Decider<PlanningDayState, PlanningDayCommand, PlanningDayEvent> = {
  initialState: () => ({ held: [] }),
  evolve: (state, event) => {
    const { time, booking } = event.data;
    switch (event.type) {
      case 'PlanningSlotBooked':
        return { held: [...state.held, { time, booking }] };
      case 'PlanningSlotReleased': {
        const index = state.held.findIndex((place) => place.time === time && sameBooking(place.booking, booking));
        return index < 0 ? state : { held: state.held.filter((_, candidate) => candidate !== index) };
      }
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'BookSlot':
        return book(command, state);
      case 'ReleaseSlot':
        return release(command, state);
      default:
        return assertNever(command);
    }
  },
};
