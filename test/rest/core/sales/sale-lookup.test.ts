import { readModelsCaughtUp } from '../../../support/api-harness.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../../src/events/command-context.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../../../src/events/sales/supplier-lines.ts';
import { ensureShippingLabel } from '../../../../src/labels/label-service.ts';
import { expectJson, importOrder, invalid, notFound, nowAnswered, seedCatalog, startCoreSalesApi, type CoreSalesApi } from './core-sales-api.ts';

type Imported = Awaited<ReturnType<typeof importOrder>>;

/** The sale just imported, as both lookups answer it. */
const freshSale = (sale: Imported) => ({
  id: sale.saleId,
  increment_id: '100004512',
  status: 'processing',
  source: 'shopping-api',
  created_at: '2026-10-02T09:14:00+02:00',
  order_date: '2026-10-02',
  currency: 'EUR',
  customer: { email: 'Claire.Martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
  business_customer: null,
  shipping_address: {
    firstname: 'Claire',
    lastname: 'Martin',
    company: null,
    street: ['12 rue des Lilas', 'Bâtiment B'],
    postcode: '69003',
    city: 'Lyon',
    country_id: 'FR',
    telephone: '+33612345678',
  },
  billing_address: {
    firstname: 'Claire',
    lastname: 'Martin',
    company: 'Atelier Martin',
    street: ['3 place Bellecour'],
    postcode: '69002',
    city: 'Lyon',
    country_id: 'FR',
    telephone: null,
  },
  payment: { method: 'card', status: 'paid', amount_paid: 1407.8 },
  shipping_amount: 0,
  grand_total: 1407.8,
  products: [
    {
      sale_product_id: sale.sofa,
      sku: 'CAN-OSLO-3P-GRY',
      name: 'Canapé 3 places Oslo gris',
      qty: 1,
      price: 649,
      wholesale_price: 389.4,
      state: 'pending',
      supplier: 'supplier-a',
      service_order_id: `100004512_${sale.sofa}`,
      carrier: 'Geodis',
      requires_appointment: true,
      acknowledged_at: null,
      prepared_at: null,
      cancelled_at: null,
      tracking: {
        number: sale.trackingOf(sale.sofa),
        carrier: 'Geodis',
        url: `https://espace-client.geodis.com/services/destinataires/#/fr/suivi/${sale.trackingOf(sale.sofa)}`,
        by_supplier: false,
      },
      refusal: null,
    },
    {
      sale_product_id: sale.table,
      sku: 'TAB-NORD-180',
      name: 'Table à manger Nord 180 cm',
      qty: 1,
      price: 499,
      wholesale_price: null,
      state: 'pending',
      supplier: null,
      service_order_id: null,
      carrier: 'Colissimo',
      requires_appointment: false,
      acknowledged_at: null,
      prepared_at: null,
      cancelled_at: null,
      tracking: null,
      refusal: null,
    },
    {
      sale_product_id: sale.lamp,
      sku: 'LAMP-ARC-BLK',
      name: 'Lampadaire arc noir',
      qty: 2,
      price: 129.9,
      wholesale_price: 61.5,
      state: 'pending',
      supplier: 'supplier-b',
      service_order_id: `100004512_${sale.lamp}`,
      carrier: 'DPD',
      requires_appointment: false,
      acknowledged_at: null,
      prepared_at: null,
      cancelled_at: null,
      tracking: {
        number: sale.trackingOf(sale.lamp),
        carrier: 'DPD',
        url: `https://trace.dpd.fr/fr/trace/${sale.trackingOf(sale.lamp)}`,
        by_supplier: false,
      },
      refusal: null,
    },
  ],
  refunds: [],
  delivery_appointment: null,
  delivery_service_appointment: null,
  sav_ids: [],
  savs: [],
  imported_at: nowAnswered,
  cancelled_at: null,
  updated_at: nowAnswered,
});

describe('GET /api/get-sale-info-by-increment-id/{incrementId} and GET /api/sale/{id}', () => {
  let api: CoreSalesApi;
  let sale: Imported;
  beforeEach(async () => {
    api = await startCoreSalesApi();
    await seedCatalog(api);
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  it('when the sale exists, the lookup by increment ID answers it in full: products, customer, addresses, payment', async () => {
    expectJson(await api.get('/api/get-sale-info-by-increment-id/100004512'), 200, freshSale(sale));
  });

  it('when the sale exists, the lookup by sale ID answers the same sale', async () => {
    expectJson(await api.get(`/api/sale/${sale.saleId}`), 200, freshSale(sale));
  });

  it('when the sale is just imported, each supplier line carries the tracking number it was created with, and its label prints it', async () => {
    const response = await api.get(`/api/sale/${sale.saleId}`);

    expect(response.status).toBe(200);
    const numbers = response.body.products.map((product: { tracking: { number: string } | null }) => product.tracking?.number ?? null);
    expect(numbers).toEqual([expect.stringMatching(/^MC\d{13}$/), null, expect.stringMatching(/^MC\d{13}$/)]);
    const lamp = await ensureShippingLabel(api.runtime, { serviceOrderId: `100004512_${sale.lamp}` }, systemContext());
    const sofa = await ensureShippingLabel(api.runtime, { serviceOrderId: `100004512_${sale.sofa}` }, systemContext());
    expect([sofa!.trackingNumber, null, lamp!.trackingNumber]).toEqual(numbers);
  });

  it('when a line was acknowledged and shipped, both lookups answer its state, dates and tracking alike', async () => {
    const line = { serviceOrderId: `100004512_${sale.lamp}`, supplier: 'supplier-b' as const };
    await acknowledgeSupplierLine(api.runtime.salesDeps, line, systemContext());
    await shipSupplierLine(api.runtime.salesDeps, line, systemContext());
    await readModelsCaughtUp(api.runtime);

    const byIncrementId = await api.get('/api/get-sale-info-by-increment-id/100004512');
    const byId = await api.get(`/api/sale/${sale.saleId}`);

    expect(byIncrementId.body.products[2]).toEqual({
      ...freshSale(sale).products[2],
      state: 'shipped',
      acknowledged_at: nowAnswered,
      prepared_at: nowAnswered,
    });
    expect(byIncrementId.body.products[2].tracking).toEqual({
      number: sale.trackingOf(sale.lamp),
      carrier: 'DPD',
      url: `https://trace.dpd.fr/fr/trace/${sale.trackingOf(sale.lamp)}`,
      by_supplier: false,
    });
    expect(byId.body).toEqual(byIncrementId.body);
  });

  it('when the sale has SAVs, both lookups list each with its status, the one staff resolved as resolved', async () => {
    const core = (path: string, body: object) => api.request.post(path).set('Authorization', `Bearer ${api.token}`).send(body);
    const data = { complaint: 'Pied fendu', complaint_name: 'Produit endommagé', sav_type: 'repair' };
    const sofaSav: number = (await core('/api/sale-sav/create-for-sale-product', { saleProductId: sale.sofa, data })).body.sav_id;
    const lampSav: number = (
      await core('/api/sale-sav/create-for-sale-product', { saleProductId: [sale.lamp], data: { ...data, complaint_name: 'Pièce manquante' } })
    ).body.sav_id;
    expect((await core(`/api/sale-sav/${lampSav}/resolve`, { resolution: 'Vis envoyée' })).status).toBe(200);

    const byIncrementId = await api.get('/api/get-sale-info-by-increment-id/100004512');
    const byId = await api.get(`/api/sale/${sale.saleId}`);

    expect(byIncrementId.body.sav_ids).toEqual([sofaSav, lampSav]);
    expect(byIncrementId.body.savs).toEqual([
      {
        id: sofaSav,
        status: 'in_progress',
        complaint_type: 'Produit endommagé',
        sale_product_ids: [sale.sofa],
        created_at: nowAnswered,
        status_changed_at: nowAnswered,
      },
      {
        id: lampSav,
        status: 'resolved',
        complaint_type: 'Pièce manquante',
        sale_product_ids: [sale.lamp],
        created_at: nowAnswered,
        status_changed_at: nowAnswered,
      },
    ]);
    expect(byId.body).toEqual(byIncrementId.body);
  });

  it('when no sale has the increment ID, it answers 404', async () => {
    expectJson(await api.get('/api/get-sale-info-by-increment-id/999999'), 404, notFound('No sale found with increment ID 999999'));
  });

  it('when no sale has the ID, it answers 404', async () => {
    expectJson(await api.get('/api/sale/424242'), 404, notFound('No sale found with ID 424242'));
  });

  it.each(['ABC', '10000451a', '1'.repeat(21)])('when the increment ID is %s, it answers 400 naming incrementId', async (incrementId) => {
    expectJson(await api.get(`/api/get-sale-info-by-increment-id/${incrementId}`), 400, invalid('incrementId: must be 1 to 20 digits'));
  });

  it.each(['abc', '0', '-1', '12.5', '1e3', '99999999999'])('when the sale ID is %s, it answers 400 naming id', async (id) => {
    expectJson(await api.get(`/api/sale/${id}`), 400, invalid('id: must be a positive integer'));
  });

  it('when the sale ID is beyond the integer range, it answers 400 naming id', async () => {
    expectJson(await api.get('/api/sale/2147483648'), 400, invalid('id: must be at most 2147483647'));
  });
});
