import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSav } from '../../../src/events/after-sales/create-sav.ts';
import { savStreamName } from '../../../src/events/after-sales/events.ts';
import { cancelSav, closeSav, reopenSav, resolveSav } from '../../../src/events/after-sales/sav-lifecycle.ts';
import { loadDayOccupancy } from '../../../src/events/planning/slot-booking.ts';
import type { EventStore } from '../../../src/events/store/event-store.ts';
import { nextMonday } from '../planning/planning-test-deps.ts';
import { openTestSav, savRequest, type TestSav } from './sav-test-deps.ts';

const slot = { date: nextMonday, time: '09:00' };
const appointment = { ...slot, phone: null, comment: null };

describe('the life of a SAV, on a real store', () => {
  let sav: TestSav;
  beforeEach(async () => {
    sav = await openTestSav();
  });
  afterEach(async () => sav.close());

  const open = async (withAppointment = true) => {
    const created = await createSav(sav.deps, savRequest({ appointment: withAppointment ? appointment : null }), sav.context);
    if (created.status !== 'created') throw new Error(`the SAV was not created: ${created.refusal.code}`);
    return created.savId;
  };
  const typesOf = async (savId: number) => (await sav.deps.eventStore.readStream(savStreamName(savId))).map((event) => event.type);
  const occupancy = () => loadDayOccupancy(sav.deps, 'sav', nextMonday);
  const refusalCode = (result: { status: string; refusal?: { code: string } }) => result.refusal?.code ?? null;

  it('when a SAV is resolved, closed, reopened, resolved and closed again, each change is recorded at the clock’s time', async () => {
    const savId = await open(false);
    const at = sav.deps.clock.now().toISOString();

    expect(await resolveSav(sav.deps, { savId, resolution: 'Joint changé' }, sav.context)).toMatchObject({ status: 'resolved', at, releasedAppointment: null });
    expect(await closeSav(sav.deps, { savId }, sav.context)).toMatchObject({ status: 'closed', at, releasedAppointment: null });
    expect(await reopenSav(sav.deps, { savId, reason: 'La porte ferme mal encore' }, sav.context)).toMatchObject({
      status: 'reopened',
      at,
      releasedAppointment: null,
    });
    expect((await resolveSav(sav.deps, { savId, resolution: 'Charnière changée' }, sav.context)).status).toBe('resolved');
    expect((await closeSav(sav.deps, { savId }, sav.context)).status).toBe('closed');

    expect(await typesOf(savId)).toEqual(['SavCreated', 'SavResolved', 'SavClosed', 'SavReopened', 'SavResolved', 'SavClosed']);
  });

  it('when a SAV with an upcoming appointment is cancelled, its place is given back and can be booked again', async () => {
    const savId = await open();
    await open(); // the slot's second (last) place
    const full = await createSav(sav.deps, savRequest({ appointment }), sav.context);
    expect(refusalCode(full)).toBe('slot_full');

    expect(await cancelSav(sav.deps, { savId, reason: 'Client injoignable' }, sav.context)).toMatchObject({ status: 'cancelled', releasedAppointment: slot });

    expect(await occupancy()).toEqual({ '09:00': 1 });
    expect((await createSav(sav.deps, savRequest({ appointment }), sav.context)).status).toBe('created');
    expect(await occupancy()).toEqual({ '09:00': 2 });
  });

  it('when a resolved SAV with an upcoming appointment is closed, its place is given back too', async () => {
    const savId = await open();
    await resolveSav(sav.deps, { savId, resolution: 'Réglé par téléphone' }, sav.context);

    expect(await closeSav(sav.deps, { savId }, sav.context)).toMatchObject({ status: 'closed', releasedAppointment: slot });
    expect(await occupancy()).toEqual({});
  });

  it('when the appointment’s day is past, cancelling keeps its place: the planning of that day stays as it was', async () => {
    const savId = await open();
    const later = { ...sav.deps, clock: { now: () => new Date('2026-03-10T08:00:00.000Z') } };

    expect(await cancelSav(later, { savId, reason: 'Sans suite' }, sav.context)).toMatchObject({ status: 'cancelled', releasedAppointment: null });
    expect(await occupancy()).toEqual({ '09:00': 1 });
  });

  it('when a change is refused (an unknown SAV, a status that does not allow it), nothing is recorded', async () => {
    const savId = await open();
    const head = await sav.deps.eventStore.headPosition();

    expect(refusalCode(await resolveSav(sav.deps, { savId: savId + 100, resolution: 'x' }, sav.context))).toBe('unknown_sav');
    expect(refusalCode(await closeSav(sav.deps, { savId }, sav.context))).toBe('sav_status_conflict');
    expect(refusalCode(await reopenSav(sav.deps, { savId, reason: 'x' }, sav.context))).toBe('sav_status_conflict');
    await cancelSav(sav.deps, { savId, reason: 'Doublon' }, sav.context);
    const afterCancel = await sav.deps.eventStore.headPosition();
    expect(refusalCode(await cancelSav(sav.deps, { savId, reason: 'Doublon' }, sav.context))).toBe('sav_status_conflict');
    expect(refusalCode(await reopenSav(sav.deps, { savId, reason: 'x' }, sav.context))).toBe('sav_status_conflict');

    expect(head).toBeLessThan(afterCancel);
    expect(await sav.deps.eventStore.headPosition()).toBe(afterCancel);
  });

  it('when 10 staff resolve one SAV at once, one resolution is recorded and the 9 others are refused', async () => {
    const savId = await open(false);

    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => resolveSav(sav.deps, { savId, resolution: `Résolution ${n}` }, sav.context)));

    expect(results.filter((result) => result.status === 'resolved')).toHaveLength(1);
    expect(results.filter((result) => refusalCode(result) === 'sav_status_conflict')).toHaveLength(9);
    expect(await typesOf(savId)).toEqual(['SavCreated', 'SavResolved']);
  });

  it('when a cancellation and a resolution race, exactly one of them is recorded', async () => {
    const savId = await open();

    const [cancelled, resolved] = await Promise.all([
      cancelSav(sav.deps, { savId, reason: 'Doublon' }, sav.context),
      resolveSav(sav.deps, { savId, resolution: 'Réparé' }, sav.context),
    ]);

    expect([cancelled.status, resolved.status].filter((status) => status !== 'refused')).toHaveLength(1);
    expect((await typesOf(savId)).slice(2)).toEqual([cancelled.status === 'cancelled' ? 'SavCancelled' : 'SavResolved']);
    expect(await occupancy()).toEqual(cancelled.status === 'cancelled' ? {} : { '09:00': 1 });
  });

  it('when the place could not be given back after the cancellation was recorded, cancelling again gives it back', async () => {
    const savId = await open();
    const store = sav.deps.eventStore;
    // The planning day's stream refuses one write, as an outage between the two writes would.
    let failures = 1;
    const flaky = new Proxy(store, {
      get: (target, key) =>
        key === 'appendToStream'
          ? ((async (streamName, ...rest) => {
              if (streamName.startsWith('planningday-') && failures-- > 0) throw new Error('event store unavailable');
              return target.appendToStream(streamName, ...rest);
            }) satisfies EventStore['appendToStream'])
          : Reflect.get(target, key, target),
    });

    await expect(cancelSav({ ...sav.deps, eventStore: flaky }, { savId, reason: 'Doublon' }, sav.context)).rejects.toThrow('event store unavailable');
    expect(await typesOf(savId)).toEqual(['SavCreated', 'SavAppointmentScheduled', 'SavCancelled']);
    expect(await occupancy()).toEqual({ '09:00': 1 });

    expect(refusalCode(await cancelSav(sav.deps, { savId, reason: 'Doublon' }, sav.context))).toBe('sav_status_conflict');
    expect(await occupancy()).toEqual({});
  });
});
