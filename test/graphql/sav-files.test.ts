import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jpeg } from '../files/file-server.ts';
import { dataUrl } from '../jobs/sav-file-fixtures.ts';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';
import { importOrder, seedCatalog } from './seed.ts';

describe("a SAV's files in GraphQL", () => {
  let api: GraphqlApi;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  beforeEach(async () => {
    api = await startGraphqlApi();
    await seedCatalog(api);
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  it('when a SAV has a photo sent with it and one given by URL, each shows its state, and the stored one its core download link', async () => {
    const token = await api.tokenFor('core', 'back-office');
    const images = [dataUrl('image/jpeg', jpeg), 'https://cdn.example.org/sav/pied.jpg'];
    const created = await api.request
      .post('/api/sale-sav/create-for-sale-product')
      .set('Authorization', `Bearer ${token}`)
      .send({ saleProductId: sale.sofa, data: { complaint: 'Le pied est fendu.', complaint_name: 'Produit endommagé', sav_type: 'repair', images } });
    const savId: number = created.body.sav_id;

    const { sale: found } = await api.data(
      `{ sale(id: ${sale.saleId}) { savs { files { fileId fileName state size attempts lastError nextAttemptAt sourceUrl downloadUrl } } } }`,
    );

    const [stored, pending] = found.savs[0].files;
    expect(found.savs[0].files).toEqual([
      {
        fileId: stored.fileId,
        fileName: 'image-1.jpg',
        state: 'stored',
        size: jpeg.length,
        attempts: 0,
        lastError: null,
        nextAttemptAt: null,
        sourceUrl: null,
        downloadUrl: `http://localhost:3000/api/sale-sav/${savId}/files/${stored.fileId}`,
      },
      {
        fileId: pending.fileId,
        fileName: 'pied.jpg',
        state: 'pending',
        size: null,
        attempts: 0,
        lastError: null,
        nextAttemptAt: '2026-10-05T10:00:00+02:00',
        sourceUrl: images[1],
        downloadUrl: null,
      },
    ]);
  });
});
