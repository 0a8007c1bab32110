import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../../src/events/command-context.ts';
import { planningDayStreamName } from '../../../../src/events/planning/events.ts';
import { configurePlanning } from '../../../../src/events/planning/planning-handlers.ts';
import { bookSlot, releaseSlot } from '../../../../src/events/planning/slot-booking.ts';
import { saleStreamName } from '../../../../src/events/sales/events.ts';
import { occupancy } from '../../../../src/projections/planning/queries.ts';
import { findSaleById } from '../../../../src/projections/sales/queries.ts';
import { expectAnswer, expectRefused, importOrder, start, startSaleActionsApi, type ImportedOrder, type SaleActionsApi } from './sale-actions-api.ts';
import { readModelsCaughtUp } from '../../../support/api-harness.ts';

const deliverySlots = ['08:00', '10:00', '13:00', '15:00', '17:00'];
const monday = '2026-10-12';
const otherSale = { kind: 'sale' as const, saleId: 9999, incrementId: '999999' };

describe('GET and POST /api/sale-rdv-check/{token}', () => {
  let api: SaleActionsApi;
  let sale: ImportedOrder;
  beforeEach(async () => {
    api = await startSaleActionsApi();
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  const rdvToken = (date = monday, time = '10:00') => api.mint('rdv', sale.saleId, { data: { date, time } });
  /** One place per slot, the 10:00 of Monday 12 taken by another sale. */
  const fillTheSlot = async () => {
    await configurePlanning(
      api.runtime.write,
      { planningType: 'delivery', slotTimes: deliverySlots, capacityPerSlot: 1, workingDays: [1, 2, 3, 4, 5, 6] },
      systemContext(),
    );
    const planning = api.runtime.planning;
    expect(await bookSlot(planning, { planningType: 'delivery', date: monday, time: '10:00', ref: otherSale }, systemContext())).toMatchObject({
      ok: true,
      took: true,
    });
    await readModelsCaughtUp(api.runtime);
  };

  describe('checking', () => {
    it('when the slot is free, it answers available with the free days and records nothing', async () => {
      const head = await api.head();

      const response = await api.get(`/api/sale-rdv-check/${rdvToken()}`);

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        sale_id: sale.saleId,
        increment_id: '100004512',
        status: 'available',
        appointment: { date: monday, time: '10:00' },
        schedulable: true,
        slot_available: true,
        reason: null,
        current_appointment: null,
        range: { start: start.slice(0, 10), end: '2026-11-04' },
        timezone: 'Europe/Paris',
      });
      // Monday to Saturday over 31 days: the four Sundays are closed (1 November, a holiday, is one of them).
      expect(response.body.available_dates).toHaveLength(27);
      expect(response.body.available_dates).not.toContain('2026-10-11');
      expect(response.body.available_slots[monday]).toEqual(deliverySlots);
      expect(await api.head()).toBe(head);
    });

    it('when the slot is full, it answers unavailable with the reason and leaves the slot out of the free ones', async () => {
      await fillTheSlot();

      const response = await api.get(`/api/sale-rdv-check/${rdvToken()}`);

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        status: 'unavailable',
        schedulable: true,
        slot_available: false,
        reason: { code: 'slot_full', message: `The delivery slot of ${monday} at 10:00 is full` },
      });
      expect(response.body.available_slots[monday]).toEqual(['08:00', '13:00', '15:00', '17:00']);
    });

    it('when the sale is cancelled, it answers not_schedulable', async () => {
      await api.post(`/api/sale-cancel/${api.mint('cancel', sale.saleId)}`);

      const response = await api.get(`/api/sale-rdv-check/${rdvToken()}`);

      expect(response.body).toMatchObject({ status: 'not_schedulable', schedulable: false, reason: { code: 'not_schedulable' } });
    });

    it('when the appointment was applied, it answers scheduled, the sale keeping its own place', async () => {
      await fillTheSlot();
      await releaseSlot(api.runtime.write, { planningType: 'delivery', date: monday, time: '10:00', ref: otherSale }, systemContext());
      const token = rdvToken();
      expect((await api.post(`/api/sale-rdv-check/${token}`)).status).toBe(200);

      const response = await api.get(`/api/sale-rdv-check/${token}`);

      expect(response.body).toMatchObject({ status: 'scheduled', slot_available: true, current_appointment: { date: monday, time: '10:00' } });
      expect(response.body.available_slots[monday]).toEqual(deliverySlots);
    });
  });

  describe('applying', () => {
    it('when the slot is free, the appointment is booked in the planning, recorded on the sale, and the token used', async () => {
      const token = rdvToken();
      expect((await api.get(`/api/sale-rdv-check/${token}`)).status).toBe(200);

      const response = await api.post(`/api/sale-rdv-check/${token}`);

      expectAnswer(response, 200, {
        success: true,
        sale_id: sale.saleId,
        increment_id: '100004512',
        status: 'scheduled',
        appointment: { date: monday, time: '10:00' },
        previous_appointment: null,
        message: 'The delivery appointment is scheduled',
      });
      expect((await api.stream(saleStreamName(sale.incrementId))).at(-1)).toMatchObject({
        type: 'SaleDeliveryAppointmentScheduled',
        data: { saleId: sale.saleId, planningType: 'delivery', date: monday, time: '10:00', previous: null, scheduledAt: start },
      });
      expect((await api.stream(planningDayStreamName('delivery', monday))).map((event) => event.type)).toEqual(['PlanningSlotBooked']);
      expect((await findSaleById(api.runtime.readStore, sale.saleId))?.deliveryAppointment).toMatchObject({ date: monday, time: '10:00' });
      expect(await occupancy(api.runtime.readStore, { planningTypes: ['delivery'], from: monday, to: monday })).toEqual({ [monday]: { '10:00': 1 } });
    });

    it('when the sale had an appointment, the new one replaces it and its place is given back', async () => {
      await api.post(`/api/sale-rdv-check/${rdvToken()}`);

      const response = await api.post(`/api/sale-rdv-check/${rdvToken('2026-10-13', '15:00')}`);

      expect(response.body).toMatchObject({ status: 'scheduled', previous_appointment: { date: monday, time: '10:00' } });
      expect(await occupancy(api.runtime.readStore, { planningTypes: ['delivery'], from: monday, to: '2026-10-13' })).toEqual({ '2026-10-13': { '15:00': 1 } });
    });

    it('when the token was used, a second use answers 409 action_token_used and books nothing more', async () => {
      const token = rdvToken();
      await api.post(`/api/sale-rdv-check/${token}`);
      const head = await api.head();

      expectRefused(await api.post(`/api/sale-rdv-check/${token}`), 409, 'action_token_used');
      expect(await api.head()).toBe(head);
    });

    it('when the slot is full, it answers 409, records nothing, and the same token works once a place frees up', async () => {
      await fillTheSlot();
      const token = rdvToken();
      const head = await api.head();

      expectRefused(await api.post(`/api/sale-rdv-check/${token}`), 409, 'slot_full', `The delivery slot of ${monday} at 10:00 is full`);
      expect(await api.head()).toBe(head);

      await releaseSlot(api.runtime.write, { planningType: 'delivery', date: monday, time: '10:00', ref: otherSale }, systemContext());
      expect((await api.post(`/api/sale-rdv-check/${token}`)).body).toMatchObject({ status: 'scheduled' });
    });

    it.each([
      { when: 'a holiday', date: '2026-11-11', time: '10:00', error: 'holiday', message: '2026-11-11 is a holiday: no delivery that day' },
      { when: 'a Sunday', date: '2026-10-11', time: '10:00', error: 'closed_day', message: 'No delivery is made on the weekday of 2026-10-11' },
      { when: 'a time with no slot', date: monday, time: '09:30', error: 'unknown_slot', message: 'There is no delivery slot at 09:30' },
      { when: 'a past day', date: '2026-10-02', time: '10:00', error: 'in_the_past', message: 'The appointment day 2026-10-02 is in the past' },
    ])('when the appointment falls on $when, it answers 409 $error and records nothing', async ({ date, time, error, message }) => {
      const head = await api.head();

      expectRefused(await api.post(`/api/sale-rdv-check/${rdvToken(date, time)}`), 409, error, message);
      expect(await api.head()).toBe(head);
    });

    it('when the sale has nothing left to deliver, it answers 409 not_schedulable and records nothing', async () => {
      await api.post(`/api/sale-cancel/${api.mint('cancel', sale.saleId)}`);
      const head = await api.head();

      expectRefused(await api.post(`/api/sale-rdv-check/${rdvToken()}`), 409, 'not_schedulable');
      expect(await api.head()).toBe(head);
    });
  });
});
