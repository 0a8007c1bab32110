import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSav } from '../../../../src/events/after-sales/create-sav.ts';
import { scheduleSavAppointment } from '../../../../src/events/after-sales/sav-appointment.ts';
import { actionTokenStreamName } from '../../../../src/events/access/events.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { fold } from '../../../../src/events/decider.ts';
import { readDomainStream } from '../../../../src/events/domain-store.ts';
import { planningDayStreamName } from '../../../../src/events/planning/events.ts';
import { configurePlanning } from '../../../../src/events/planning/planning-handlers.ts';
import { planningDayDecider, type PlanningDayEvent } from '../../../../src/events/planning/planning-day-decider.ts';
import { bookSlot, releaseSlot } from '../../../../src/events/planning/slot-booking.ts';
import { readSale } from '../../../../src/events/sales/deps.ts';
import { EventStoreUnavailableError, InvalidEventStoreRequestError, type EventStore } from '../../../../src/events/store/event-store.ts';
import { savCreationDeps } from '../../../../src/rest/chatbot/sav-sale-loader.ts';
import { expectRefused, importOrder, startSaleActionsApi, type ImportedOrder, type SaleActionsApi } from './sale-actions-api.ts';

/**
 * The planning and the appointment's owner (a sale, a SAV) are two streams, and a single-use token a
 * third: these specifications race the requests that write them, or fail the second write, and check
 * that every appointment keeps its place, no place outlives its appointment when the failure is
 * certain, and a token whose action did not happen can be used again. They run on the production
 * backends too (TEST_BACKENDS=production), where the appends race over the network.
 */

const monday = '2026-10-12';
const otherSale = { kind: 'sale' as const, saleId: 9999, incrementId: '999999' };

describe('planning races and failures', () => {
  let api: SaleActionsApi;
  let sale: ImportedOrder;
  beforeEach(async () => {
    api = await startSaleActionsApi();
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  /** Who holds which place on a day of a planning, read from the day's stream. */
  const placesOn = async (planningType: 'delivery' | 'sav', date: string) => {
    const { events } = await readDomainStream<PlanningDayEvent>(api.runtime.eventStore, planningDayStreamName(planningType, date));
    return fold(planningDayDecider, events).held.map(
      ({ time, booking }) => `${time} ${booking.kind === 'sale' ? `sale ${booking.saleId}` : `sav ${booking.savId}`}`,
    );
  };
  const appointmentOf = async () => {
    const appointment = (await readSale(api.runtime.eventStore, sale.incrementId))?.deliveryAppointment;
    return appointment ? `${appointment.date} ${appointment.time}` : null;
  };
  const rdvToken = (time: string, date = monday) => api.mint('rdv', sale.saleId, { data: { date, time } });

  /**
   * The store fails the next append to a stream of the category, with `error`, once: the rest of the
   * runtime is untouched. `before` runs just before the failure (another writer getting there first).
   */
  const failNextAppend = (category: string, error: Error | null, before: () => Promise<void> = async () => {}) => {
    const store: EventStore = api.runtime.eventStore;
    const append = store.appendToStream.bind(store);
    let armed = true;
    store.appendToStream = async (streamName, events, options) => {
      if (!armed || !streamName.startsWith(`${category}-`)) return append(streamName, events, options);
      armed = false;
      await before();
      if (error) throw error;
      return append(streamName, events, options);
    };
    return () => {
      store.appendToStream = append;
    };
  };

  it('when two links of one sale book the same slot at once, the sale holds the slot and the planning keeps exactly its place', async () => {
    const tokens = Array.from({ length: 6 }, () => rdvToken('10:00'));

    const responses = await Promise.all(tokens.map((token) => api.post(`/api/sale-rdv-check/${token}`)));

    // Each answers the appointment as it finds it (scheduled, unchanged, or changed meanwhile); none fails.
    expect(responses.map((response) => response.status).filter((status) => status !== 200 && status !== 409)).toEqual([]);
    expect(responses.filter((response) => response.body.status === 'scheduled')).toHaveLength(1);
    expect(await appointmentOf()).toBe(`${monday} 10:00`);
    expect(await placesOn('delivery', monday)).toEqual([`10:00 sale ${sale.saleId}`]);
  });

  it('when a sale is moved to two slots at once, it ends on one of them and holds that place only', async () => {
    await api.post(`/api/sale-rdv-check/${rdvToken('08:00')}`);

    await Promise.all([api.post(`/api/sale-rdv-check/${rdvToken('13:00')}`), api.post(`/api/sale-rdv-check/${rdvToken('15:00')}`)]);

    const appointment = await appointmentOf();
    expect([`${monday} 13:00`, `${monday} 15:00`]).toContain(appointment);
    expect(await placesOn('delivery', monday)).toEqual([`${appointment!.slice(-5)} sale ${sale.saleId}`]);
  });

  it('when recording a move surely fails, the sale keeps its appointment and its place, the new place is given back, and the link works again', async () => {
    await api.post(`/api/sale-rdv-check/${rdvToken('08:00')}`);
    const token = rdvToken('13:00');
    const restore = failNextAppend('sale', new InvalidEventStoreRequestError('maximum append size exceeded'));

    const failed = await api.post(`/api/sale-rdv-check/${token}`);
    restore();

    expect(failed.status).toBe(500);
    expect(await appointmentOf()).toBe(`${monday} 08:00`);
    expect(await placesOn('delivery', monday)).toEqual([`08:00 sale ${sale.saleId}`]);
    expect((await api.stream(actionTokenStreamName(api.payloadOf(token).jti))).map((event) => event.type)).toEqual([
      'ActionTokenConsumed',
      'ActionTokenRestored',
    ]);

    expect((await api.post(`/api/sale-rdv-check/${token}`)).body).toMatchObject({ status: 'scheduled', previous_appointment: { date: monday, time: '08:00' } });
    expect(await placesOn('delivery', monday)).toEqual([`13:00 sale ${sale.saleId}`]);
  });

  it('when recording a move fails in a way that may have recorded it, no place is given back and the link stays used', async () => {
    await api.post(`/api/sale-rdv-check/${rdvToken('08:00')}`);
    const token = rdvToken('13:00');
    const restore = failNextAppend('sale', new EventStoreUnavailableError('connection reset during the append'));

    const failed = await api.post(`/api/sale-rdv-check/${token}`);
    restore();

    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await appointmentOf()).toBe(`${monday} 08:00`);
    expect(await placesOn('delivery', monday)).toEqual([`08:00 sale ${sale.saleId}`, `13:00 sale ${sale.saleId}`]);
    expectRefused(await api.post(`/api/sale-rdv-check/${token}`), 409, 'action_token_used');
  });

  it("when the last place goes to another sale between the link's use and the booking, 409 slot_full, and the same link works once a place frees up", async () => {
    await configurePlanning(
      api.runtime.write,
      { planningType: 'delivery', slotTimes: ['10:00'], capacityPerSlot: 1, workingDays: [1, 2, 3, 4, 5] },
      systemContext(),
    );
    const token = rdvToken('10:00');
    const restore = failNextAppend('planningday', null, async () => {
      await bookSlot(api.runtime.planning, { planningType: 'delivery', date: monday, time: '10:00', ref: otherSale }, systemContext());
    });

    const refused = await api.post(`/api/sale-rdv-check/${token}`);
    restore();

    expectRefused(refused, 409, 'slot_full');
    expect(await appointmentOf()).toBeNull();
    expect(await placesOn('delivery', monday)).toEqual(['10:00 sale 9999']);

    await releaseSlot(api.runtime.write, { planningType: 'delivery', date: monday, time: '10:00', ref: otherSale }, systemContext());
    expect((await api.post(`/api/sale-rdv-check/${token}`)).body).toMatchObject({ status: 'scheduled' });
    expect(await placesOn('delivery', monday)).toEqual([`10:00 sale ${sale.saleId}`]);
  });

  describe("a SAV's appointment", () => {
    const createSavFor = async () => {
      const created = await createSav(
        savCreationDeps(api.runtime),
        {
          saleProductIds: [sale.sofa],
          complaint: 'Pied cassé',
          complaintName: 'Casse',
          savType: 'repair',
          channel: 'core',
          appointment: { date: monday, time: '09:00', phone: null, comment: null },
          files: [],
        },
        systemContext(),
      );
      if (created.status !== 'created') throw new Error(`SAV not created: ${created.refusal.code}`);
      return created.savId;
    };

    it('when the same SAV is scheduled on one slot by racing requests, it holds exactly one place there', async () => {
      const savId = await createSavFor();

      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          scheduleSavAppointment(api.runtime.planning, { savId, date: '2026-10-13', time: '14:00', phone: null, comment: null }, systemContext()),
        ),
      );

      expect(results.filter((result) => result.status === 'scheduled')).toHaveLength(1);
      expect(await placesOn('sav', '2026-10-13')).toEqual([`14:00 sav ${savId}`]);
      expect(await placesOn('sav', monday)).toEqual([]);
    });

    it("when recording a move fails in a way that may have recorded it, the SAV's place is kept, and so is the new one", async () => {
      const savId = await createSavFor();
      const restore = failNextAppend('sav', new EventStoreUnavailableError('connection reset during the append'));

      await expect(
        scheduleSavAppointment(api.runtime.planning, { savId, date: '2026-10-13', time: '14:00', phone: null, comment: null }, systemContext()),
      ).rejects.toThrow(EventStoreUnavailableError);
      restore();

      expect(await placesOn('sav', monday)).toEqual([`09:00 sav ${savId}`]);
      expect(await placesOn('sav', '2026-10-13')).toEqual([`14:00 sav ${savId}`]);
    });

    it('when creating a SAV fails in a way that may have recorded it, its place is kept; when it surely failed, the place is given back', async () => {
      let restore = failNextAppend('sav', new EventStoreUnavailableError('connection reset during the append'));
      await expect(createSavFor()).rejects.toThrow(EventStoreUnavailableError);
      restore();
      expect(await placesOn('sav', monday)).toHaveLength(1);

      restore = failNextAppend('sav', new InvalidEventStoreRequestError('maximum append size exceeded'));
      await expect(createSavFor()).rejects.toThrow(InvalidEventStoreRequestError);
      restore();
      expect(await placesOn('sav', monday)).toHaveLength(1);
    });
  });
});
