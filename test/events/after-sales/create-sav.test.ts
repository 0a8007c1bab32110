import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSav, type SavFileStore } from '../../../src/events/after-sales/create-sav.ts';
import { savStreamName } from '../../../src/events/after-sales/events.ts';
import { appendDomainEvents } from '../../../src/events/domain-store.ts';
import { configurePlanning } from '../../../src/events/planning/planning-handlers.ts';
import { loadDayOccupancy } from '../../../src/events/planning/slot-booking.ts';
import { nextMonday } from '../planning/planning-test-deps.ts';
import { openTestSav, savRequest, type TestSav } from './sav-test-deps.ts';

const appointment = { date: nextMonday, time: '09:00', phone: '0601020304', comment: 'Sonner deux fois' };

describe('creating a SAV', () => {
  let sav: TestSav;
  beforeEach(async () => {
    sav = await openTestSav();
  });
  afterEach(async () => sav.close());

  const typesOf = async (savId: number) => (await sav.deps.eventStore.readStream(savStreamName(savId))).map((event) => event.type);

  it('when the request has an appointment and files, the SAV is recorded with them and the slot is taken', async () => {
    const files = [{ kind: 'image' as const, category: 'photo', sourceUrl: 'https://cdn.example.fr/a.jpg', fileName: 'a.jpg' }];
    const result = await createSav(sav.deps, savRequest({ appointment, files }), sav.context);
    expect(result).toMatchObject({ status: 'created', savId: sav.allocatedSavIds[0] });
    if (result.status !== 'created') return;
    expect(await typesOf(result.savId)).toEqual(['SavCreated', 'SavAppointmentScheduled', 'SavFileAttached']);
    expect(await loadDayOccupancy(sav.deps, 'sav', nextMonday)).toEqual({ '09:00': 1 });
  });

  it('when the request has no appointment, no slot is taken', async () => {
    const result = await createSav(sav.deps, savRequest(), sav.context);
    expect(result.status).toBe('created');
    if (result.status !== 'created') return;
    expect(await typesOf(result.savId)).toEqual(['SavCreated']);
    expect(await loadDayOccupancy(sav.deps, 'sav', nextMonday)).toEqual({});
  });

  it('when 30 SAVs race for the one place of a slot, exactly one is created and the others are refused with slot_full', async () => {
    await configurePlanning(sav.deps, { planningType: 'sav', slotTimes: ['09:00'], capacityPerSlot: 1, workingDays: [1, 2, 3, 4, 5] }, sav.context);

    const results = await Promise.all(Array.from({ length: 30 }, () => createSav(sav.deps, savRequest({ appointment }), sav.context)));

    const created = results.flatMap((result) => (result.status === 'created' ? [result.savId] : []));
    const refusals = results.flatMap((result) => (result.status === 'refused' ? [result.refusal.code] : []));
    expect(created).toHaveLength(1);
    expect(refusals).toEqual(Array.from({ length: 29 }, () => 'slot_full'));
    expect(sav.allocatedSavIds).toHaveLength(30);
    expect(new Set(sav.allocatedSavIds).size).toBe(30);
    expect(await typesOf(created[0]!)).toEqual(['SavCreated', 'SavAppointmentScheduled']);
    for (const savId of sav.allocatedSavIds.filter((id) => id !== created[0])) expect(await typesOf(savId)).toEqual([]);
    const savStreams = new Set((await sav.deps.eventStore.readAll({ filter: { streamPrefixes: ['sav-'] } })).map((event) => event.streamName));
    expect([...savStreams]).toEqual([savStreamName(created[0]!)]);
    expect(await loadDayOccupancy(sav.deps, 'sav', nextMonday)).toEqual({ '09:00': 1 });
  });

  it('when the slot is full, the creation is refused and the store is unchanged', async () => {
    await createSav(sav.deps, savRequest({ appointment }), sav.context);
    await createSav(sav.deps, savRequest({ appointment }), sav.context);
    const head = await sav.deps.eventStore.headPosition();
    const result = await createSav(sav.deps, savRequest({ appointment }), sav.context);
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('slot_full');
    expect(await sav.deps.eventStore.headPosition()).toBe(head);
    expect(sav.allocatedSavIds).toHaveLength(2);
  });

  it('when the day is a holiday or closed, the creation is refused before any ID is spent and no SAV is recorded', async () => {
    const holiday = await createSav(sav.deps, savRequest({ appointment: { ...appointment, date: '2026-05-14' } }), sav.context);
    expect(holiday.status === 'refused' ? holiday.refusal.code : null).toBe('holiday');
    const sunday = await createSav(sav.deps, savRequest({ appointment: { ...appointment, date: '2026-03-08' } }), sav.context);
    expect(sunday.status === 'refused' ? sunday.refusal.code : null).toBe('closed_day');
    expect(await sav.deps.eventStore.readAll({ filter: { streamPrefixes: ['sav-', 'planningday-'] } })).toEqual([]);
    expect(sav.allocatedSavIds).toEqual([]);
  });

  it('when a product is not on the sale, it is refused with unknown_sale_product before any ID or slot is taken', async () => {
    const result = await createSav(sav.deps, savRequest({ saleProductIds: [31, 99], appointment }), sav.context);
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('unknown_sale_product');
    expect(await sav.deps.eventStore.headPosition()).toBe(-1);
  });

  it('when no sale has the products, it is refused with unknown_sale_product', async () => {
    const result = await createSav(sav.deps, savRequest({ saleProductIds: [99] }), sav.context);
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('unknown_sale_product');
  });

  it('when no product is given, it is refused with no_product', async () => {
    const result = await createSav(sav.deps, savRequest({ saleProductIds: [] }), sav.context);
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('no_product');
  });

  /** Another writer records SAV 1 without going through the allocator. */
  const recordSavOneElsewhere = () =>
    appendDomainEvents(
      sav.deps.eventStore,
      savStreamName(1),
      [
        {
          type: 'SavCreated',
          data: {
            savId: 1,
            saleId: 12,
            incrementId: '100000012',
            saleProductIds: [32],
            products: [{ saleProductId: 32, sku: 'LAVE-LINGE-9KG', name: 'Lave-linge 9 kg' }],
            complaint: 'x',
            complaintName: 'x',
            savType: 'x',
            channel: 'core',
            customerEmail: null,
            createdAt: '2026-03-01T10:00:00.000Z',
          },
        },
      ],
      sav.context,
      sav.deps.clock.now(),
      'no_stream',
    );

  it('when the SAV stream already exists, it is refused with sav_exists and the slot is given back', async () => {
    await recordSavOneElsewhere();

    const result = await createSav(sav.deps, savRequest({ appointment }), sav.context);
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('sav_exists');
    expect(sav.allocatedSavIds).toEqual([1]);
    expect(await typesOf(1)).toEqual(['SavCreated']);
    expect(await loadDayOccupancy(sav.deps, 'sav', nextMonday)).toEqual({});
  });

  describe('when files come with their content (data URLs)', () => {
    const content = { bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0]), contentType: 'image/jpeg', extension: 'jpg' };
    const withContent = savRequest({ files: [{ kind: 'image', category: 'image', sourceUrl: null, fileName: 'image-1.jpg', content }] });
    /** A store that keeps its files in memory, and tells what the SAV's events named when each was stored. */
    const memoryStore = () => {
      const kept = new Map<string, number>();
      const store: SavFileStore = {
        store: async (savId, file) => {
          const storedPath = `sav-files/${savId}/${file.fileName}`;
          kept.set(storedPath, (await sav.deps.eventStore.readStream(savStreamName(savId))).length);
          return { storedPath, contentType: file.contentType, size: file.bytes.length };
        },
        discard: async (file) => void kept.delete(file.storedPath),
      };
      return { kept, deps: { ...sav.deps, files: store } };
    };

    it('when the SAV is recorded, each file was stored first, and its attachment names where', async () => {
      const { kept, deps } = memoryStore();

      const result = await createSav(deps, withContent, sav.context);

      if (result.status !== 'created') throw new Error(`not created: ${JSON.stringify(result)}`);
      expect([...kept]).toEqual([[`sav-files/${result.savId}/image-1.jpg`, 0]]);
      const [, attached] = await sav.deps.eventStore.readStream(savStreamName(result.savId));
      expect(attached?.data).toMatchObject({ sourceUrl: null, storedPath: `sav-files/${result.savId}/image-1.jpg`, contentType: 'image/jpeg', size: 4 });
    });

    it('when the SAV cannot be recorded (its stream exists), the files stored for it are discarded', async () => {
      const { kept, deps } = memoryStore();
      await recordSavOneElsewhere();

      const result = await createSav(deps, withContent, sav.context);

      expect(result.status === 'refused' ? result.refusal.code : null).toBe('sav_exists');
      expect([...kept]).toEqual([]);
    });

    it('when no file store is given, the request fails before anything is recorded', async () => {
      await expect(createSav(sav.deps, withContent, sav.context)).rejects.toThrow('without a file store');
      expect(await sav.deps.eventStore.readAll({ filter: { streamPrefixes: ['sav-'] } })).toEqual([]);
    });
  });
});
