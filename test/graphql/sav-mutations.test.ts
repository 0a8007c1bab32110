import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savStreamName } from '../../src/events/after-sales/events.ts';
import { zonedTimestamp } from '../../src/time/zoned-timestamp.ts';
import { now, startGraphqlApi, steppingClock, type GraphqlApi } from './graphql-api.ts';
import { importOrder, seedCatalog } from './seed.ts';

const savFields =
  'savId status statusChangedAt resolution resolvedAt closedAt reopenedAt cancelledAt cancellationReason appointment { date time } statusHistory { status at by note }';
/** The instant `minutes` after the clock's start, as answers write it (in Paris, at the second). */
const minutesLater = (minutes: number) => zonedTimestamp('Europe/Paris')(new Date(now).getTime() + minutes * 60_000);

describe('the SAV status mutations', () => {
  let api: GraphqlApi;
  let clock: ReturnType<typeof steppingClock>;
  let core: string;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  beforeEach(async () => {
    clock = steppingClock();
    api = await startGraphqlApi({ clock });
    await seedCatalog(api);
    sale = await importOrder(api);
    core = await api.tokenFor('core', 'back-office');
  });
  afterEach(async () => api.close());

  /** A SAV filed through the core route, with an appointment on Wednesday 7 October at 09:00 when asked. */
  const fileSav = async (rdv = false) => {
    const data = {
      complaint: 'Le pied est fendu.',
      complaint_name: 'Produit endommagé',
      sav_type: 'repair',
      ...(rdv && { rdv_date: '2026-10-07', rdv_time: '09:00' }),
    };
    const response = await api.request
      .post('/api/sale-sav/create-for-sale-product')
      .set('Authorization', `Bearer ${core}`)
      .send({ saleProductId: sale.sofa, data });
    expect(response.status).toBe(201);
    return response.body.sav_id as number;
  };
  const asStaff = (query: string, variables?: Record<string, unknown>) => api.post(query, variables, core);
  const staffData = async (query: string, variables?: Record<string, unknown>) => {
    const response = await asStaff(query, variables);
    if (response.body.errors) throw new Error(JSON.stringify(response.body.errors));
    return response.body.data;
  };
  const head = () => api.runtime.eventStore.headPosition();

  it('when staff resolve, close and reopen a SAV, each answer gives the SAV as it now stands, with the time and author of every step', async () => {
    const savId = await fileSav();
    clock.advance(10);
    const resolved = (
      await staffData(`mutation { resolveSav(savId: ${savId}, resolution: "Pied remplacé") { status releasedAppointment { date } sav { ${savFields} } } }`)
    ).resolveSav;
    clock.advance(10);
    const closed = (await staffData(`mutation { closeSav(savId: ${savId}) { status sav { status closedAt resolution } } }`)).closeSav;
    clock.advance(10);
    const reopened = (
      await staffData(`mutation($reason: String!) { reopenSav(savId: ${savId}, reason: $reason) { status sav { ${savFields} } } }`, { reason: 'Le pied bouge' })
    ).reopenSav;

    expect(resolved).toEqual({
      status: 'resolved',
      releasedAppointment: null,
      sav: {
        savId,
        status: 'resolved',
        statusChangedAt: minutesLater(10),
        resolution: 'Pied remplacé',
        resolvedAt: minutesLater(10),
        closedAt: null,
        reopenedAt: null,
        cancelledAt: null,
        cancellationReason: null,
        appointment: null,
        statusHistory: [
          { status: 'in_progress', at: minutesLater(0), by: 'back-office', note: null },
          { status: 'resolved', at: minutesLater(10), by: 'back-office', note: 'Pied remplacé' },
        ],
      },
    });
    expect(closed).toEqual({ status: 'closed', sav: { status: 'closed', closedAt: minutesLater(20), resolution: 'Pied remplacé' } });
    expect(reopened.status).toBe('reopened');
    expect(reopened.sav).toMatchObject({
      status: 'in_progress',
      statusChangedAt: minutesLater(30),
      resolution: null,
      resolvedAt: null,
      closedAt: null,
      reopenedAt: minutesLater(30),
    });
    expect(reopened.sav.statusHistory.map(({ status }: { status: string }) => status)).toEqual(['in_progress', 'resolved', 'closed', 'in_progress']);
  });

  it('when staff cancel a SAV with an upcoming appointment, its place is given back and the planning occupancy no longer counts it', async () => {
    const savId = await fileSav(true);
    const taken = async () =>
      (await api.data('{ planningOccupancy(from: "2026-10-07", to: "2026-10-07") { occupied { date slots { time taken } } } }')).planningOccupancy.occupied;
    expect(await taken()).toEqual([{ date: '2026-10-07', slots: [{ time: '09:00', taken: 1 }] }]);

    const { cancelSav } = await staffData(
      `mutation { cancelSav(savId: ${savId}, reason: "Doublon") { status releasedAppointment { date time } sav { status cancellationReason appointment { date } } } }`,
    );

    expect(cancelSav).toEqual({
      status: 'cancelled',
      releasedAppointment: { date: '2026-10-07', time: '09:00' },
      sav: { status: 'cancelled', cancellationReason: 'Doublon', appointment: null },
    });
    expect(await taken()).toEqual([]);
  });

  it('when the sale is read, its SAVs carry their status', async () => {
    const first = await fileSav();
    const second = await fileSav();
    await staffData(`mutation { cancelSav(savId: ${second}, reason: "Doublon") { status } }`);

    const { sale: found } = await api.data(`{ sale(id: ${sale.saleId}) { savs { savId status } } }`);

    expect(found.savs).toEqual([
      { savId: first, status: 'in_progress' },
      { savId: second, status: 'cancelled' },
    ]);
  });

  it('when an analyst token asks for a change, it is refused with FORBIDDEN and nothing is recorded', async () => {
    const savId = await fileSav();
    const position = await head();

    const response = await api.post(`mutation { resolveSav(savId: ${savId}, resolution: "Pied remplacé") { status } }`);

    expect(response.body.errors).toEqual([
      expect.objectContaining({ message: 'Only staff (a Bearer token of the core group) may run this mutation', extensions: { code: 'FORBIDDEN' } }),
    ]);
    expect(await head()).toBe(position);
  });

  it('when the status does not allow the change, the error carries SAV_STATUS_CONFLICT with the status, and nothing is recorded', async () => {
    const savId = await fileSav();
    const position = await head();

    const response = await asStaff(`mutation { closeSav(savId: ${savId}) { status } }`);

    expect(response.body.errors[0]).toMatchObject({
      message: `SAV ${savId} is in_progress: it cannot be closed (only a SAV resolved can be)`,
      extensions: { code: 'SAV_STATUS_CONFLICT', details: { savId, status: 'in_progress', allowedFrom: ['resolved'] } },
    });
    expect(await head()).toBe(position);
  });

  it('when the SAV is unknown or a text is blank, a coded error names the cause and nothing is recorded', async () => {
    const savId = await fileSav();
    const position = await head();

    const unknown = await asStaff('mutation { cancelSav(savId: 4242, reason: "Doublon") { status } }');
    const blank = await asStaff(`mutation { resolveSav(savId: ${savId}, resolution: "   ") { status } }`);

    expect(unknown.body.errors[0]).toMatchObject({ message: 'No SAV with this ID', extensions: { code: 'UNKNOWN_SAV' } });
    expect(blank.body.errors[0]).toMatchObject({
      message: 'resolution: must be a text of 1 to 2000 characters',
      extensions: { code: 'BAD_USER_INPUT', field: 'resolution' },
    });
    expect(await head()).toBe(position);
    expect((await api.runtime.eventStore.readStream(savStreamName(savId))).map(({ type }) => type)).toEqual(['SavCreated']);
  });
});
