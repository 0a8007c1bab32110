import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savStreamName } from '../../../../src/events/after-sales/events.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { planningDayStreamName } from '../../../../src/events/planning/events.ts';
import { declareHoliday } from '../../../../src/events/planning/planning-handlers.ts';
import { findSavById } from '../../../../src/projections/after-sales/queries.ts';
import { saleLogOfSale } from '../../../support/sale-log.ts';
import { expectJson } from '../../chatbot/chatbot-api.ts';
import { complaint, now, seedSales, startSavApi, type SavApi } from './sav-api.ts';

const path = '/api/sale-sav/create-for-sale-product';

describe('POST /api/sale-sav/create-for-sale-product', () => {
  let api: SavApi;
  let sales: Awaited<ReturnType<typeof seedSales>>;
  beforeEach(async () => {
    api = await startSavApi();
    sales = await seedSales(api);
  });
  afterEach(async () => api.close());

  const recorded = async (savId: number) => (await api.runtime.eventStore.readStream(savStreamName(savId))).map(({ type, data }) => ({ type, data }));
  const head = () => api.runtime.eventStore.headPosition();
  const createWith = (data: Record<string, unknown>, saleProductId: unknown = sales.first.sofa) => api.post(path, { saleProductId, data: complaint(data) });

  it('when one product and no appointment are given, it records a core SAV with its links, pending their fetch, and answers 201 with the SAV ID', async () => {
    const response = await createWith({
      images: ['https://cdn.example.org/sav/pied%20fendu.jpg'],
      videos: ['https://videos.example.org/'],
    });

    expect(Number.isInteger(response.body.sav_id)).toBe(true);
    const savId: number = response.body.sav_id;
    const [image, video] = (await findSavById(api.runtime.readStore, savId))?.files ?? [];
    const pending = { state: 'pending', content_type: null, size: null };
    // Answers write instants in the planning zone (Paris): the frozen 08:00Z is 10:00+02:00.
    const retry = { attempts: 0, last_error: null, next_attempt_at: '2026-10-05T10:00:00+02:00', attached_at: '2026-10-05T10:00:00+02:00', download_url: null };
    expectJson(response, 201, {
      success: true,
      message: 'SAV created',
      sav_id: savId,
      appointment: null,
      files: [
        {
          id: image?.fileId,
          kind: 'image',
          category: 'image',
          name: 'pied fendu.jpg',
          ...pending,
          source_url: 'https://cdn.example.org/sav/pied%20fendu.jpg',
          ...retry,
        },
        { id: video?.fileId, kind: 'video', category: 'video', name: 'video-1', ...pending, source_url: 'https://videos.example.org/', ...retry },
      ],
    });
    const events = await recorded(savId);
    expect(events[0]).toEqual({
      type: 'SavCreated',
      data: {
        savId,
        saleId: sales.first.saleId,
        incrementId: '100004512',
        saleProductIds: [sales.first.sofa],
        products: [{ saleProductId: sales.first.sofa, sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris' }],
        complaint: 'Le pied avant gauche du canapé est fendu.',
        complaintName: 'Produit endommagé',
        savType: 'repair',
        channel: 'core',
        customerEmail: 'Claire.Martin@example.org',
        createdAt: now,
      },
    });
    expect(events.slice(1).map(({ type, data }) => ({ type, ...(data as object) }))).toEqual([
      expect.objectContaining({
        type: 'SavFileAttached',
        kind: 'image',
        category: 'image',
        sourceUrl: 'https://cdn.example.org/sav/pied%20fendu.jpg',
        fileName: 'pied fendu.jpg',
        storedPath: null,
      }),
      expect.objectContaining({
        type: 'SavFileAttached',
        kind: 'video',
        category: 'video',
        sourceUrl: 'https://videos.example.org/',
        fileName: 'video-1',
        storedPath: null,
      }),
    ]);
  });

  it('when the SAV is created, the sale log shows it at once, attributed to the core token', async () => {
    const response = await createWith({});

    const log = (await saleLogOfSale(api.runtime, sales.first.saleId)).filter((entry) => entry.type === 'SavCreated');
    expect(log).toHaveLength(1);
    expect(log[0]?.actor).toEqual({ kind: 'token', group: 'core', label: 'back-office' });
    expect(log[0]?.summary.en).toBe(
      `After-sales request ${response.body.sav_id} created (core channel) for product ${sales.first.sofa} (SKU CAN-OSLO-3P-GRY): Produit endommagé`,
    );
  });

  it('when an array of products of one sale is given, repeated IDs once, the SAV covers each of them', async () => {
    const response = await createWith({}, [sales.first.table, sales.first.sofa, sales.first.table]);

    expect(response.status).toBe(201);
    expect((await findSavById(api.runtime.readStore, response.body.sav_id))?.saleProductIds).toEqual([sales.first.table, sales.first.sofa]);
  });

  it('when rdv_date and rdv_time are given, it books the slot and schedules the appointment with its phone and comment', async () => {
    const response = await createWith({ rdv_date: '2026-10-07', rdv_time: '09:00', rdv_phone: '+33612345678', rdv_comment: 'Interphone 12' });

    const savId: number = response.body.sav_id;
    expectJson(response, 201, {
      success: true,
      message: 'SAV created and appointment scheduled',
      sav_id: savId,
      appointment: { date: '2026-10-07', time: '09:00' },
      files: [],
    });
    expect((await recorded(savId))[1]).toEqual({
      type: 'SavAppointmentScheduled',
      data: { savId, date: '2026-10-07', time: '09:00', phone: '+33612345678', comment: 'Interphone 12', previous: null, scheduledAt: now },
    });
    const day = await api.runtime.eventStore.readStream(planningDayStreamName('sav', '2026-10-07'));
    expect(day.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'PlanningSlotBooked', data: { planningType: 'sav', date: '2026-10-07', time: '09:00', booking: { kind: 'sav', savId }, bookedAt: now } },
    ]);
  });

  it('when only rdv_date is given, or the appointment fields are blank, no appointment is booked', async () => {
    const dateOnly = await createWith({ rdv_date: '2026-10-07' });
    const blank = await createWith({ rdv_date: '', rdv_time: null, rdv_phone: '' });

    for (const response of [dateOnly, blank]) {
      expect(response.status).toBe(201);
      expect(response.body.appointment).toBeNull();
      expect((await recorded(response.body.sav_id)).map((event) => event.type)).toEqual(['SavCreated']);
    }
    expect(await api.runtime.eventStore.readStream(planningDayStreamName('sav', '2026-10-07'))).toEqual([]);
  });

  describe('when the appointment cannot be had', () => {
    // A SAV already exists, so the SAV ID sequence holds a reserved block: any append would be the request's.
    beforeEach(async () => {
      expect((await createWith({})).status).toBe(201);
    });

    it('when the slot is full, it answers 409 and records neither a SAV nor a booking', async () => {
      await createWith({ rdv_date: '2026-10-07', rdv_time: '09:00' });
      await createWith({ rdv_date: '2026-10-07', rdv_time: '09:00' });
      const before = await head();

      const response = await createWith({ rdv_date: '2026-10-07', rdv_time: '09:00' });

      expectJson(response, 409, { success: false, error: 'slot_full', message: 'The appointment slot of 2026-10-07 at 09:00 is full; choose another slot' });
      expect(await head()).toBe(before);
    });

    it('when the day is a French public holiday, it answers 409 and records nothing', async () => {
      const before = await head();

      const response = await createWith({ rdv_date: '2026-11-11', rdv_time: '09:00' });

      expectJson(response, 409, { success: false, error: 'holiday', message: '2026-11-11 is a holiday: no appointment is given that day' });
      expect(await head()).toBe(before);
    });

    it('when the day is a declared holiday, it answers 409 and records nothing', async () => {
      await declareHoliday(api.runtime.write, { date: '2026-10-16', label: 'Inventaire' }, systemContext());
      const before = await head();

      const response = await createWith({ rdv_date: '2026-10-16', rdv_time: '14:00' });

      expect(response.status).toBe(409);
      expect(response.body.error).toBe('holiday');
      expect(await head()).toBe(before);
    });

    it('when the planning is closed that weekday, it answers 409 and records nothing', async () => {
      const before = await head();

      const response = await createWith({ rdv_date: '2026-10-10', rdv_time: '09:00' });

      expectJson(response, 409, { success: false, error: 'closed_day', message: 'No appointment is given on Saturdays (2026-10-10)' });
      expect(await head()).toBe(before);
    });

    it('when no slot starts at that time, it answers 409 naming the slots', async () => {
      const before = await head();

      const response = await createWith({ rdv_date: '2026-10-07', rdv_time: '10:30' });

      expectJson(response, 409, {
        success: false,
        error: 'unknown_slot',
        message: 'There is no appointment slot at 10:30 (slots: 09:00, 11:00, 14:00, 16:00)',
      });
      expect(await head()).toBe(before);
    });

    it('when the day is past, it answers 409 and records nothing', async () => {
      const before = await head();

      const response = await createWith({ rdv_date: '2026-10-02', rdv_time: '09:00' });

      expectJson(response, 409, { success: false, error: 'in_the_past', message: '2026-10-02 is in the past: choose a later day' });
      expect(await head()).toBe(before);
    });
  });

  it('when the products belong to two sales, it answers 400 naming saleProductId and records nothing', async () => {
    const before = await head();

    const response = await createWith({}, [sales.first.lamp, sales.second.lamp]);

    expectJson(response, 400, {
      success: false,
      error: 'invalid_request',
      message: 'saleProductId: the products belong to several sales (100004512, 100004513); a SAV covers the products of one sale',
    });
    expect(await head()).toBe(before);
  });

  it('when no sale has the product, it answers 404', async () => {
    const response = await createWith({}, 999_999);

    expectJson(response, 404, { success: false, error: 'not_found', message: 'No sale product with ID 999999' });
  });

  it('when one of the products is unknown, it answers 404 naming it and records nothing', async () => {
    const before = await head();

    const response = await createWith({}, [sales.first.sofa, 999_998]);

    expectJson(response, 404, { success: false, error: 'not_found', message: 'No sale product with ID 999998' });
    expect(await head()).toBe(before);
  });

  it.each([
    ['saleProductId is missing', { data: complaint() }, 'saleProductId: is required'],
    [
      'saleProductId is text',
      { saleProductId: 'abc', data: complaint() },
      'saleProductId: must be a sale product ID or a non-empty array of at most 100 of them',
    ],
    [
      'saleProductId is an empty array',
      { saleProductId: [], data: complaint() },
      'saleProductId: must be a sale product ID or a non-empty array of at most 100 of them',
    ],
    ['data is missing', { saleProductId: 1 }, 'data: is required'],
    ['the complaint is missing', { saleProductId: 1, data: complaint({ complaint: undefined }) }, 'data.complaint: is required'],
    ['the SAV type is blank', { saleProductId: 1, data: complaint({ sav_type: '   ' }) }, 'data.sav_type: must be a text of 1 to 64 characters'],
    [
      'the appointment day does not exist',
      { saleProductId: 1, data: complaint({ rdv_date: '2026-02-30', rdv_time: '09:00' }) },
      'data.rdv_date: must be a date YYYY-MM-DD',
    ],
    [
      'the appointment time is not HH:MM',
      { saleProductId: 1, data: complaint({ rdv_date: '2026-10-07', rdv_time: '9h' }) },
      'data.rdv_time: must be a time HH:MM',
    ],
    [
      'an image is a file: URL',
      { saleProductId: 1, data: complaint({ images: ['file:///etc/passwd'] }) },
      'data.images.0: must be an http(s) URL of at most 2048 characters, or a base64 data URL of an image (image/jpeg, image/png, image/webp, image/gif, image/heic, image/heif, image/avif)',
    ],
  ])('when %s, it answers 400 naming the field and records nothing', async (_case, body, message) => {
    const before = await head();

    const response = await api.post(path, body);

    expectJson(response, 400, { success: false, error: 'invalid_request', message });
    expect(await head()).toBe(before);
  });
});
