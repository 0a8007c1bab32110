import { describe, expect, it } from 'vitest';
import { findSavById, findSavs } from '../../../src/projections/after-sales/queries.ts';
import { savsProjection } from '../../../src/projections/after-sales/savs-projection.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { eventLog } from './event-log.ts';
import { project } from './project.ts';
import { cushion, saleImported, sofa } from './sale-fixtures.ts';
import { buildScenario, savId } from './scenario.ts';

const projections = [savsProjection];

describe('SAV read model', () => {
  it('when a SAV was created with an appointment and a file, the document holds them', async () => {
    const store = await openTestReadStore();
    const { events, fileId } = buildScenario();
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
      status: 'in_progress',
      createdAt: '2025-03-14T10:00:00+01:00',
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
        },
      ],
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
});
