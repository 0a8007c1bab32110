import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planningDayStreamName } from '../../../src/events/planning/events.ts';
import { configurePlanning, declareHoliday } from '../../../src/events/planning/planning-handlers.ts';
import { bookSlot, loadDayOccupancy, releaseSlot } from '../../../src/events/planning/slot-booking.ts';
import { nextMonday, openTestPlanning, type TestPlanning } from './planning-test-deps.ts';

const sav = (savId: number) => ({ kind: 'sav' as const, savId });

describe('booking a planning slot', () => {
  let planning: TestPlanning;
  beforeEach(async () => {
    planning = await openTestPlanning();
  });
  afterEach(async () => planning.close());

  const book = (savId: number, slot: { date?: string; time?: string } = {}) =>
    bookSlot(planning.deps, { planningType: 'sav', date: slot.date ?? nextMonday, time: slot.time ?? '09:00', ref: sav(savId) }, planning.context);

  it('when the slot has room, the place is taken on the day stream', async () => {
    expect(await book(1)).toMatchObject({ ok: true, took: true });
    expect(await loadDayOccupancy(planning.deps, 'sav', nextMonday)).toEqual({ '09:00': 1 });
  });

  it('when the slot is full, it is refused with slot_full and the store is unchanged', async () => {
    await book(1);
    await book(2);
    const head = await planning.deps.eventStore.headPosition();
    const result = await book(3);
    expect(result.ok ? null : result.refusal.code).toBe('slot_full');
    expect(await planning.deps.eventStore.headPosition()).toBe(head);
  });

  it('when the day is a public holiday (Easter Monday 2026), it is refused with holiday', async () => {
    const result = await book(1, { date: '2026-04-06' });
    expect(result.ok ? null : result.refusal.code).toBe('holiday');
  });

  it('when a holiday is declared on the day, it is refused with holiday', async () => {
    await declareHoliday(planning.deps, { date: nextMonday, label: 'Inventaire' }, planning.context);
    const result = await book(1);
    expect(result.ok ? null : result.refusal.code).toBe('holiday');
  });

  it('when the planning is configured, its settings apply instead of the defaults', async () => {
    await configurePlanning(planning.deps, { planningType: 'sav', slotTimes: ['10:00'], capacityPerSlot: 1, workingDays: [1] }, planning.context);
    const unknown = await book(1, { time: '09:00' });
    expect(unknown.ok ? null : unknown.refusal.code).toBe('unknown_slot');
    const closed = await book(1, { date: '2026-03-10', time: '10:00' });
    expect(closed.ok ? null : closed.refusal.code).toBe('closed_day');
    expect(await book(1, { time: '10:00' })).toMatchObject({ ok: true, took: true });
  });

  it('when the day is already over in the planning time zone, it is refused with in_the_past', async () => {
    await planning.close();
    // 23:30 UTC on Monday 2 March is already Tuesday in Paris.
    planning = await openTestPlanning(new Date('2026-03-02T23:30:00.000Z'));
    const result = await book(1, { date: '2026-03-02' });
    expect(result.ok ? null : result.refusal.code).toBe('in_the_past');
    expect(await book(1, { date: '2026-03-03' })).toMatchObject({ ok: true, took: true });
  });

  it("when the booking already holds the place, it is answered ok without taking it again: not this request's to give back", async () => {
    expect(await book(1)).toMatchObject({ ok: true, took: true });
    const head = await planning.deps.eventStore.headPosition();
    expect(await book(1)).toMatchObject({ ok: true, took: false });
    expect(await planning.deps.eventStore.headPosition()).toBe(head);
    expect(await loadDayOccupancy(planning.deps, 'sav', nextMonday)).toEqual({ '09:00': 1 });
  });

  it('when two bookings race for the last place, exactly one wins', async () => {
    await book(1);
    const results = await Promise.all([book(2), book(3)]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.refusal.code === 'slot_full')).toHaveLength(1);
    expect(await loadDayOccupancy(planning.deps, 'sav', nextMonday)).toEqual({ '09:00': 2 });
  });

  it('when the place is held, releasing it gives it back; releasing it again records nothing', async () => {
    await book(1);
    const ref = sav(1);
    expect(await releaseSlot(planning.deps, { planningType: 'sav', date: nextMonday, time: '09:00', ref }, planning.context)).toMatchObject({
      ok: true,
      released: true,
    });
    const head = await planning.deps.eventStore.headPosition();
    expect(await releaseSlot(planning.deps, { planningType: 'sav', date: nextMonday, time: '09:00', ref }, planning.context)).toEqual({
      ok: true,
      released: false,
    });
    expect(await planning.deps.eventStore.headPosition()).toBe(head);
    expect(await planning.deps.eventStore.readStream(planningDayStreamName('sav', nextMonday))).toHaveLength(2);
  });
});
