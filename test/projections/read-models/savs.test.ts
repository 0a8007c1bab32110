import { describe, expect, it } from 'vitest';
import { dueSavFiles, findSavById, findSavs } from '../../../src/projections/after-sales/queries.ts';
import { savsProjection } from '../../../src/projections/after-sales/savs-projection.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { eventLog } from './event-log.ts';
import { project } from './project.ts';
import { cushion, saleImported, sofa } from './sale-fixtures.ts';
import { buildScenario, savId } from './scenario.ts';

const projections = [savsProjection];

describe('SAV read model', () => {
  it('when a SAV was created with an appointment and files, then lived its life, the document holds them, where their fetch stands and every step', async () => {
    const store = await openTestReadStore();
    const { events, fileId, links } = buildScenario();
    await project(store, projections, events);

    expect(await findSavById(store, savId)).toEqual({
      _id: savId,
      _position: expect.any(Number),
      saleId: 101,
      incrementId: '100000101',
      // The chatbot gave no e-mail: the SAV is filed under the sale's.
      customerEmailLower: 'marie.curie@example.fr',
      saleProductIds: [1001],
      products: [{ saleProductId: 1001, sku: 'SOFA-3P', name: 'Canapé 3 places' }],
      complaint: 'Pied cassé à la livraison',
      complaintName: 'damaged',
      savType: 'repair',
      channel: 'chatbot',
      status: 'cancelled',
      createdAt: '2025-03-14T10:00:00+01:00',
      statusChangedAt: '2025-03-25T09:00:00+01:00',
      resolution: null,
      resolvedAt: null,
      closedAt: null,
      reopenedAt: '2025-03-24T09:00:00+01:00',
      cancelledAt: '2025-03-25T09:00:00+01:00',
      cancellationReason: 'Doublon du SAV 8',
      statusHistory: [
        { status: 'in_progress', at: '2025-03-14T10:00:00+01:00', by: null, note: null },
        { status: 'resolved', at: '2025-03-20T15:00:00+01:00', by: 'back-office', note: 'Pied remplacé' },
        { status: 'closed', at: '2025-03-21T09:00:00+01:00', by: 'back-office', note: null },
        { status: 'in_progress', at: '2025-03-24T09:00:00+01:00', by: 'back-office', note: 'Le pied bouge' },
        { status: 'cancelled', at: '2025-03-25T09:00:00+01:00', by: 'back-office', note: 'Doublon du SAV 8' },
      ],
      // Cancelled after its day: the appointment stays as it was.
      appointment: { date: '2025-03-20', time: '14:00', phone: '0600000000', comment: 'Sonner deux fois', scheduledAt: '2025-03-14T10:00:00+01:00' },
      files: [
        {
          fileId,
          kind: 'image',
          category: 'photo',
          sourceUrl: 'https://example.com/pied.jpg',
          storedPath: 'sav/7/pied.jpg',
          fileName: 'pied.jpg',
          contentType: 'image/jpeg',
          size: 2048,
          attachedAt: '2025-03-14T10:01:00+01:00',
          state: 'stored',
          attempts: 0,
          lastError: null,
          nextAttemptAt: null,
        },
        {
          fileId: links.fetched,
          kind: 'video',
          category: 'video',
          sourceUrl: 'https://example.com/clip.mp4',
          storedPath: 'sav-files/7/clip.mp4',
          fileName: 'clip.mp4',
          contentType: 'video/mp4',
          size: 4096,
          attachedAt: '2025-03-14T10:01:00+01:00',
          state: 'stored',
          attempts: 2,
          lastError: null,
          nextAttemptAt: null,
        },
        {
          fileId: links.givenUp,
          kind: 'video',
          category: 'video',
          sourceUrl: 'https://example.com/video-2',
          storedPath: null,
          fileName: 'video-2',
          contentType: null,
          size: null,
          attachedAt: '2025-03-14T10:01:00+01:00',
          state: 'failed',
          attempts: 1,
          lastError: 'the file is not an accepted image or video',
          nextAttemptAt: null,
        },
      ],
    });
  });

  describe('the status of a SAV', () => {
    const at = (day: number, hour = 10) => `2025-04-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
    const staff = { kind: 'token', group: 'core', label: 'sav-desk' } as const;
    const opened = () => {
      const log = eventLog();
      saleImported(log, { saleId: 1, incrementId: '500', orderedAt: '2025-03-01T10:00:00+01:00', products: [sofa] });
      log.record(
        'sav-21',
        {
          type: 'SavCreated',
          data: {
            savId: 21,
            saleId: 1,
            incrementId: '500',
            saleProductIds: [1001],
            products: [{ saleProductId: 1001, sku: sofa.sku, name: sofa.name }],
            complaint: 'Problème',
            complaintName: 'other',
            savType: 'repair',
            channel: 'chatbot',
            customerEmail: null,
            createdAt: at(1),
          },
        },
        { kind: 'token', group: 'chatbot', label: 'chatbot-prod' },
      );
      log.record('sav-21', {
        type: 'SavAppointmentScheduled',
        data: { savId: 21, date: '2025-04-10', time: '09:00', phone: null, comment: null, previous: null, scheduledAt: at(1) },
      });
      return log;
    };
    const documentAfter = async (log: ReturnType<typeof eventLog>) => {
      const store = await openTestReadStore();
      await project(store, projections, log.events);
      return findSavById(store, 21);
    };

    it('when a SAV is just opened, it is in_progress since its creation, with its creation as the first step', async () => {
      expect(await documentAfter(opened())).toMatchObject({
        status: 'in_progress',
        statusChangedAt: at(1),
        resolution: null,
        statusHistory: [{ status: 'in_progress', at: at(1), by: 'chatbot-prod', note: null }],
      });
    });

    it('when it is resolved, the resolution and its time are held; when closed, they stay and the closing time is added', async () => {
      const log = opened();
      log.record('sav-21', { type: 'SavResolved', data: { savId: 21, resolution: 'Pièce envoyée', resolvedAt: at(2) } }, staff);
      expect(await documentAfter(log)).toMatchObject({
        status: 'resolved',
        statusChangedAt: at(2),
        resolution: 'Pièce envoyée',
        resolvedAt: at(2),
        closedAt: null,
      });

      log.record('sav-21', { type: 'SavClosed', data: { savId: 21, releasedAppointment: { date: '2025-04-10', time: '09:00' }, closedAt: at(3) } }, staff);
      expect(await documentAfter(log)).toMatchObject({
        status: 'closed',
        statusChangedAt: at(3),
        resolution: 'Pièce envoyée',
        resolvedAt: at(2),
        closedAt: at(3),
        // The closing gave the appointment back.
        appointment: null,
      });
    });

    it('when it is reopened, it is in_progress again, without resolution nor closing time, and the reason is in its history', async () => {
      const log = opened();
      log.record('sav-21', { type: 'SavResolved', data: { savId: 21, resolution: 'Pièce envoyée', resolvedAt: at(2) } }, staff);
      log.record('sav-21', { type: 'SavReopened', data: { savId: 21, reason: 'Mauvaise pièce', reopenedFrom: 'resolved', reopenedAt: at(3) } }, staff);
      const sav = await documentAfter(log);
      expect(sav).toMatchObject({ status: 'in_progress', statusChangedAt: at(3), resolution: null, resolvedAt: null, closedAt: null, reopenedAt: at(3) });
      expect(sav?.statusHistory.at(-1)).toEqual({ status: 'in_progress', at: at(3), by: 'sav-desk', note: 'Mauvaise pièce' });
      // Its appointment was not given back.
      expect(sav?.appointment).toMatchObject({ date: '2025-04-10', time: '09:00' });
    });

    it('when it is cancelled before its appointment, the reason is held and the appointment is gone', async () => {
      const log = opened();
      log.record(
        'sav-21',
        {
          type: 'SavCancelled',
          data: { savId: 21, reason: 'Client injoignable', releasedAppointment: { date: '2025-04-10', time: '09:00' }, cancelledAt: at(2) },
        },
        staff,
      );
      expect(await documentAfter(log)).toMatchObject({ status: 'cancelled', cancelledAt: at(2), cancellationReason: 'Client injoignable', appointment: null });
    });
  });

  describe('finding SAVs', () => {
    const given = async () => {
      const store = await openTestReadStore();
      const log = eventLog();
      saleImported(log, { saleId: 1, incrementId: '500', orderedAt: '2025-03-01T10:00:00+01:00', products: [sofa, cushion], email: 'Jean@Example.fr' });
      const created = (id: number, saleProductId: number, product: typeof sofa, customerEmail: string | null) =>
        log.record(`sav-${id}`, {
          type: 'SavCreated',
          data: {
            savId: id,
            saleId: 1,
            incrementId: '500',
            saleProductIds: [saleProductId],
            products: [{ saleProductId, sku: product.sku, name: product.name }],
            complaint: 'Problème',
            complaintName: 'other',
            savType: 'repair',
            channel: 'core',
            customerEmail,
            createdAt: '2025-03-05T10:00:00+01:00',
          },
        });
      created(11, 1001, sofa, null);
      created(12, 1003, cushion, 'Other.Person@Example.fr');
      await project(store, projections, log.events);
      return store;
    };
    const ids = async (lookup: Parameters<typeof findSavs>[1]) => (await findSavs(await given(), lookup)).map((sav) => sav._id);

    it('when looked up by e-mail, any case finds the SAVs filed under it', async () => {
      expect(await ids({ email: 'JEAN@example.fr' })).toEqual([11]);
      expect(await ids({ email: 'other.person@example.fr' })).toEqual([12]);
    });

    it('when looked up by increment ID, every SAV of the order comes', async () => {
      expect(await ids({ incrementId: '500' })).toEqual([11, 12]);
    });

    it('when narrowed by product SKU or sale product, only the SAVs covering it come', async () => {
      expect(await ids({ incrementId: '500', productSku: 'CUSHION' })).toEqual([12]);
      expect(await ids({ incrementId: '500', saleProductId: 1001 })).toEqual([11]);
      expect(await ids({ incrementId: '500', saleProductId: 1001, productSku: 'CUSHION' })).toEqual([]);
    });

    it('when nothing matches, the list is empty', async () => {
      expect(await ids({ incrementId: '501' })).toEqual([]);
    });
  });

  describe('the files due for a fetch', () => {
    it('when links are pending, retried later, stored or given up, only those due now come, longest due first', async () => {
      const store = await openTestReadStore();
      // The scenario's SAV also has a stored file, a fetched link and a given-up one: never due.
      const { log } = buildScenario();
      const retried = '1b1c8a52-7a4c-4c61-9a53-6f0d1f3e2a11';
      const fresh = '2c2d8a52-7a4c-4c61-9a53-6f0d1f3e2a12';
      const attach = (fileId: string, attachedAt: string) =>
        log.record(`sav-${savId}`, {
          type: 'SavFileAttached',
          data: {
            savId,
            fileId,
            kind: 'image',
            category: 'photo',
            sourceUrl: `https://example.com/${fileId}.jpg`,
            storedPath: null,
            fileName: 'p.jpg',
            contentType: null,
            size: null,
            attachedAt,
          },
        });
      attach(fresh, '2025-03-14T10:05:00+01:00');
      attach(retried, '2025-03-14T10:00:00+01:00');
      log.record(`sav-${savId}`, {
        type: 'SavFileFetchFailed',
        data: {
          savId,
          fileId: retried,
          fileName: 'p.jpg',
          attempt: 1,
          reason: 'timeout',
          error: 'slow',
          nextAttemptAt: '2025-03-14T10:01:00+01:00',
          failedAt: '2025-03-14T10:00:00+01:00',
        },
      });
      await project(store, projections, log.events);

      // In UTC, as the job asks.
      expect(await dueSavFiles(store, '2025-03-14T08:59:00.000Z', 10)).toEqual([]);
      expect(await dueSavFiles(store, '2025-03-14T09:01:00.000Z', 10)).toEqual([{ savId, fileId: retried, nextAttemptAt: '2025-03-14T09:01:00.000Z' }]);
      expect(await dueSavFiles(store, '2025-03-14T09:10:00.000Z', 10)).toEqual([
        { savId, fileId: retried, nextAttemptAt: '2025-03-14T09:01:00.000Z' },
        { savId, fileId: fresh, nextAttemptAt: '2025-03-14T09:05:00.000Z' },
      ]);
      expect(await dueSavFiles(store, '2025-03-14T09:10:00.000Z', 1)).toHaveLength(1);
      expect((await dueSavFiles(store, '2030-01-01T00:00:00.000Z', 10)).map((due) => due.fileId)).toEqual([retried, fresh]);
    });
  });
});
