import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../../src/cli/demo/seed-demo.ts';
import { savsCollection, type SavDocument } from '../../../src/projections/after-sales/sav-document.ts';
import { supplierLinesCollection, type SupplierLineDocument } from '../../../src/projections/supplier-lines/supplier-line-document.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../support/api-harness.ts';

/** The demo data as the chatbot and the back-office see it: shipped lines carry their tracking numbers. */
describe('demo seed', () => {
  let api: ApiHarness;
  let lines: SupplierLineDocument[];
  beforeAll(async () => {
    api = await startApi();
    await seedDemo(api.runtime, { orders: 60, seed: 11, until: new Date('2026-11-01T00:00:00Z'), concurrency: 4 });
    await readModelsCaughtUp(api.runtime);
    lines = await api.runtime.readStore.collection<SupplierLineDocument>(supplierLinesCollection).find({}).toArray();
  }, 120_000);
  afterAll(async () => api.close());

  it('when orders are seeded, every supplier line has a tracking number from its creation, shipped or not', () => {
    expect(lines.filter((line) => line.state === 'shipped').length).toBeGreaterThan(10);
    for (const line of lines) expect(line.trackingNumber, line._id).toMatch(/^MC\d{13}$/);
    expect(new Set(lines.map((line) => line.trackingNumber)).size).toBe(lines.length);
  });

  it('when a shipped line is looked up, the chatbot shows its tracking number and the core API its tracking page', async () => {
    const shipped = lines.find((line) => line.state === 'shipped' && line.carrier === 'DPD');
    expect(shipped).toBeDefined();
    const { incrementId, saleProductId, trackingNumber } = shipped!;

    const chatbot = await api.request.get(`/api/sale/details/${incrementId}`).set('X-API-Token', await api.tokenFor('chatbot'));
    const core = await api.request.get(`/api/get-sale-info-by-increment-id/${incrementId}`).set('Authorization', `Bearer ${await api.tokenFor('core')}`);

    const byId = (products: { sale_product_id: number }[]) => products.find((product) => product.sale_product_id === saleProductId);
    expect(byId(chatbot.body.data.products)).toMatchObject({ tracking: trackingNumber, delivery_status: 'shipped' });
    expect(byId(core.body.products)).toMatchObject({
      state: 'shipped',
      tracking: { number: trackingNumber, carrier: 'DPD', url: `https://trace.dpd.fr/fr/trace/${trackingNumber}` },
    });
  });

  it('when SAVs are seeded, each is filed under the complaint its text describes', async () => {
    const savs = await api.runtime.readStore.collection<SavDocument>(savsCollection).find({}).toArray();
    const filed = new Set(savs.map((sav) => `${sav.complaintName}: ${sav.complaint}`));
    const described = ['Produit endommagé: Le produit est arrivé endommagé, un pied est cassé.', 'Colis manquant: Il manque un colis dans la livraison.'];
    expect(savs.length).toBeGreaterThan(0);
    for (const complaint of filed) expect(described).toContain(complaint);
  });
});
