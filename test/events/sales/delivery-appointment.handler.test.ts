import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Refusal } from '../../../src/events/decider.ts';
import { cancelSale } from '../../../src/events/sales/cancel-sale.ts';
import {
  scheduleDeliveryAppointment,
  type DeliveryAppointmentDeps,
  type SlotAnswer,
  type SlotBooking,
} from '../../../src/events/sales/delivery-appointment.ts';
import { importSale, type ImportSaleResult } from '../../../src/events/sales/import-sale.ts';
import { EventStoreUnavailableError, InvalidEventStoreRequestError, type EventStore } from '../../../src/events/store/event-store.ts';
import { anOrder, openSalesHarness, type SalesHarness } from './sales-harness.ts';

type PlanningCall = { operation: 'book' | 'release'; booking: SlotBooking; appointmentsRecordedBefore: number };

describe('scheduling a delivery appointment through the planning', () => {
  let harness: SalesHarness;
  let sale: ImportSaleResult;
  let deps: DeliveryAppointmentDeps;
  // The planning: it notes what it is asked (and whether the sale had recorded it yet), and answers bookings with `onBook`.
  let calls: PlanningCall[];
  let onBook: () => Promise<SlotAnswer>;

  const appointmentsRecorded = async () =>
    (await harness.saleEvents(sale.incrementId)).filter((event) => event.type === 'SaleDeliveryAppointmentScheduled').length;
  const planningOperation =
    (operation: 'book' | 'release') =>
    async (booking: SlotBooking): Promise<SlotAnswer> => {
      calls.push({ operation, booking, appointmentsRecordedBefore: await appointmentsRecorded() });
      return operation === 'book' ? onBook() : { ok: true, took: false };
    };

  beforeEach(async () => {
    harness = await openSalesHarness();
    sale = await importSale(harness.deps, anOrder(), harness.context);
    calls = [];
    onBook = async () => ({ ok: true, took: true });
    deps = { ...harness.deps, bookSlot: planningOperation('book'), releaseSlot: planningOperation('release') };
  });
  afterEach(async () => {
    await harness.close();
  });

  const schedule = (date: string, time: string, using: DeliveryAppointmentDeps = deps) =>
    scheduleDeliveryAppointment(using, { incrementId: sale.incrementId, date, time }, harness.context);
  const ref = () => ({ kind: 'sale', saleId: sale.saleId, incrementId: sale.incrementId });

  it('when the sale has no appointment, books the place first, then records the appointment', async () => {
    expect(await schedule('2026-10-12', '09:00')).toMatchObject({ status: 'scheduled', previous: null });

    expect(calls).toEqual([
      { operation: 'book', booking: { planningType: 'delivery', date: '2026-10-12', time: '09:00', ref: ref() }, appointmentsRecordedBefore: 0 },
    ]);
    expect(await appointmentsRecorded()).toBe(1);
  });

  it('when the sale has an appointment, books the new place, records the move, and only then releases the place it replaces', async () => {
    await schedule('2026-10-12', '09:00');
    expect(await schedule('2026-10-13', '14:00')).toMatchObject({ status: 'scheduled', previous: { date: '2026-10-12', time: '09:00' } });
    expect(calls.slice(1)).toEqual([
      { operation: 'book', booking: { planningType: 'delivery', date: '2026-10-13', time: '14:00', ref: ref() }, appointmentsRecordedBefore: 1 },
      { operation: 'release', booking: { planningType: 'delivery', date: '2026-10-12', time: '09:00', ref: ref() }, appointmentsRecordedBefore: 2 },
    ]);
  });

  it('when the same appointment is asked again, books nothing and answers unchanged', async () => {
    await schedule('2026-10-12', '09:00');
    expect(await schedule('2026-10-12', '09:00')).toEqual({ status: 'unchanged' });
    expect(calls).toHaveLength(1);
  });

  it('when the planning refuses the place, records nothing and answers its refusal', async () => {
    onBook = async () => ({ ok: false, refusal: new Refusal('slot_full', 'No place left') });
    expect(await schedule('2026-10-12', '09:00')).toMatchObject({ status: 'refused', refusal: { code: 'slot_full' } });
    expect(await appointmentsRecorded()).toBe(0);
  });

  it('when the sale is cancelled, books nothing and is refused', async () => {
    await cancelSale(harness.deps, { incrementId: sale.incrementId, reason: 'customer request' }, harness.context);
    expect(await schedule('2026-10-12', '09:00')).toMatchObject({ status: 'refused', refusal: { code: 'not_schedulable' } });
    expect(calls).toEqual([]);
  });

  it("when the place was already the sale's (a racing request of the same sale took it) and recording is refused, the place is not released", async () => {
    onBook = async () => {
      onBook = async () => ({ ok: true, took: true });
      await schedule('2026-10-14', '11:00');
      return { ok: true, took: false };
    };
    expect(await schedule('2026-10-12', '09:00')).toMatchObject({ status: 'refused', refusal: { code: 'appointment_changed' } });
    expect(calls.filter((call) => call.operation === 'release')).toEqual([]);
  });

  it('when the sale is unknown, books nothing and is refused as not found', async () => {
    const result = await scheduleDeliveryAppointment(deps, { incrementId: '1', date: '2026-10-12', time: '09:00' }, harness.context);
    expect(result).toMatchObject({ status: 'refused', refusal: { code: 'sale_not_found' } });
    expect(calls).toEqual([]);
  });

  it('when another appointment is recorded while the place is booked, releases the booking and is refused', async () => {
    onBook = async () => {
      onBook = async () => ({ ok: true, took: true });
      await schedule('2026-10-14', '11:00');
      return { ok: true, took: true };
    };
    expect(await schedule('2026-10-12', '09:00')).toMatchObject({ status: 'refused', refusal: { code: 'appointment_changed' } });

    const released = calls.filter((call) => call.operation === 'release').map((call) => call.booking);
    expect(released).toEqual([{ planningType: 'delivery', date: '2026-10-12', time: '09:00', ref: ref() }]);
  });

  const failingAppends = (error: Error): EventStore => {
    const store = harness.store;
    return {
      appendToStream: async () => Promise.reject(error),
      readStream: (name, options) => store.readStream(name, options),
      readAll: (options) => store.readAll(options),
      subscribeToAll: (options) => store.subscribeToAll(options),
      headPosition: () => store.headPosition(),
      close: () => store.close(),
    };
  };

  it('when recording surely fails after booking (the store refused the append), releases the booking and fails', async () => {
    const refused = new InvalidEventStoreRequestError('maximum append size exceeded');
    await expect(schedule('2026-10-12', '09:00', { ...deps, eventStore: failingAppends(refused) })).rejects.toThrow(refused);
    expect(calls.map((call) => call.operation)).toEqual(['book', 'release']);
  });

  it('when recording fails in a way that may have recorded it (the store unreachable mid-append), keeps the booking and fails', async () => {
    const unreachable = new EventStoreUnavailableError('connection reset during the append');
    await expect(schedule('2026-10-12', '09:00', { ...deps, eventStore: failingAppends(unreachable) })).rejects.toThrow(unreachable);
    expect(calls.map((call) => call.operation)).toEqual(['book']);
  });

  it('when a move is recorded nowhere, the place it replaces is never released', async () => {
    await schedule('2026-10-12', '09:00');
    const refused = new InvalidEventStoreRequestError('maximum append size exceeded');
    await expect(schedule('2026-10-13', '14:00', { ...deps, eventStore: failingAppends(refused) })).rejects.toThrow(refused);
    expect(calls.slice(1).map((call) => [call.operation, call.booking.date])).toEqual([
      ['book', '2026-10-13'],
      ['release', '2026-10-13'],
    ]);
  });
});
