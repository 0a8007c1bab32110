import { describe, expect, it } from 'vitest';
import type { BookingRef } from '../../../src/events/schema/common-schemas.ts';
import { fold } from '../../../src/events/decider.ts';
import { defaultPlanningSettings } from '../../../src/events/planning/planning-defaults.ts';
import { occupancyOf, planningDayDecider, type BookSlot, type PlanningDayEvent, type ReleaseSlot } from '../../../src/events/planning/planning-day-decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

// 2026-03-09 is a Monday; today is the Monday before.
const date = '2026-03-09';
const at = '2026-03-02T08:00:00.000Z';
const sav = (savId: number): BookingRef => ({ kind: 'sav', savId });
const sale: BookingRef = { kind: 'sale', saleId: 7, incrementId: '100000007' };

const book = (booking: BookingRef, overrides: Partial<BookSlot> = {}): BookSlot => ({
  type: 'BookSlot',
  planningType: 'sav',
  date,
  time: '09:00',
  booking,
  settings: defaultPlanningSettings.sav,
  holidays: new Set(),
  today: '2026-03-02',
  at,
  ...overrides,
});
const release = (booking: BookingRef, time = '09:00'): ReleaseSlot => ({ type: 'ReleaseSlot', planningType: 'sav', date, time, booking, at });
const booked = (booking: BookingRef, time = '09:00'): PlanningDayEvent => ({
  type: 'PlanningSlotBooked',
  data: { planningType: 'sav', date, time, booking, bookedAt: at },
});
const released = (booking: BookingRef, time = '09:00'): PlanningDayEvent => ({
  type: 'PlanningSlotReleased',
  data: { planningType: 'sav', date, time, booking, releasedAt: at },
});

describe('planning day bookings', () => {
  const { given } = deciderSpec(planningDayDecider);

  it('when the slot has room, the booking is recorded', () => {
    given([booked(sav(1))])
      .when(book(sav(2)))
      .then([booked(sav(2))]);
  });

  it('when the slot is full, it is refused with slot_full', () => {
    given([booked(sav(1)), booked(sale)])
      .when(book(sav(3)))
      .thenRefused('slot_full');
  });

  it('when a place of a full slot was released, the slot takes a booking again', () => {
    given([booked(sav(1)), booked(sav(2)), released(sav(1))])
      .when(book(sav(3)))
      .then([booked(sav(3))]);
  });

  it('when another time of the day is full, this slot still has room', () => {
    given([booked(sav(1), '11:00'), booked(sav(2), '11:00')])
      .when(book(sav(3)))
      .then([booked(sav(3))]);
  });

  it('when the capacity is zero, every slot is full', () => {
    given([])
      .when(book(sav(1), { settings: { ...defaultPlanningSettings.sav, capacityPerSlot: 0 } }))
      .thenRefused('slot_full');
  });

  it('when the same booking already holds the slot, nothing happens, even if the slot is full', () => {
    given([booked(sav(1)), booked(sav(2))])
      .when(book(sav(1)))
      .thenNothingHappens();
  });

  it('when the weekday is not a working day, it is refused with closed_day', () => {
    given([])
      .when(book(sav(1), { date: '2026-03-07' }))
      .thenRefused('closed_day');
    given([])
      .when(book(sav(1), { date: '2026-03-08' }))
      .thenRefused('closed_day');
  });

  it('when the delivery planning works on Saturdays, a Saturday is open', () => {
    const saturday = { planningType: 'delivery' as const, date: '2026-03-07', time: '08:00', settings: defaultPlanningSettings.delivery };
    given([])
      .when(book(sale, saturday))
      .then([{ type: 'PlanningSlotBooked', data: { planningType: 'delivery', date: '2026-03-07', time: '08:00', booking: sale, bookedAt: at } }]);
  });

  it('when the day is a holiday, it is refused with holiday', () => {
    given([])
      .when(book(sav(1), { holidays: new Set([date]) }))
      .thenRefused('holiday');
  });

  it('when the time is not one of the slot times, it is refused with unknown_slot', () => {
    given([])
      .when(book(sav(1), { time: '10:00' }))
      .thenRefused('unknown_slot');
  });

  it('when the day is before today, it is refused with in_the_past', () => {
    given([])
      .when(book(sav(1), { today: '2026-03-10' }))
      .thenRefused('in_the_past');
  });

  it('when the day is today, the booking is recorded', () => {
    given([])
      .when(book(sav(1), { today: date }))
      .then([booked(sav(1))]);
  });

  it('when the booking holds the slot, releasing it records the release', () => {
    given([booked(sav(1))])
      .when(release(sav(1)))
      .then([released(sav(1))]);
  });

  it('when the booking does not hold the slot, releasing it does nothing', () => {
    given([])
      .when(release(sav(1)))
      .thenNothingHappens();
    given([booked(sav(1), '11:00')])
      .when(release(sav(1)))
      .thenNothingHappens();
    given([booked(sav(1)), released(sav(1))])
      .when(release(sav(1)))
      .thenNothingHappens();
  });

  it('when a sale and a SAV share an ID number, they are different bookings', () => {
    given([booked({ kind: 'sale', saleId: 1, incrementId: '100000001' })])
      .when(release(sav(1)))
      .thenNothingHappens();
  });
});

describe('occupancy of a day', () => {
  it('when places were booked and released, it counts the places still held per time', () => {
    const state = fold(planningDayDecider, [
      booked(sav(1)),
      booked(sav(2)),
      booked(sav(3), '14:00'),
      released(sav(1)),
      booked(sav(4), '16:00'),
      released(sav(4), '16:00'),
    ]);
    expect(occupancyOf(state)).toEqual({ '09:00': 1, '14:00': 1 });
  });

  it('when nothing is booked, it is empty', () => {
    expect(occupancyOf(planningDayDecider.initialState())).toEqual({});
  });
});
