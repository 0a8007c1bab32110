import { readModelsCaughtUp } from '../../support/api-harness.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/events/command-context.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import { expectJson, importOrder, nowAnswered, order, savRequest, seedCatalog, staffChanges, startChatbotApi, type ChatbotApi } from './chatbot-api.ts';

describe('GET /api/sale/details/{incrementId}', () => {
  let api: ChatbotApi;
  beforeEach(async () => {
    api = await startChatbotApi();
    await seedCatalog(api);
  });
  afterEach(async () => api.close());

  it('when the order exists, it answers the order, its products with availability, delivery and tracking, its payment and no SAV', async () => {
    const sale = await importOrder(api);
    const line = { serviceOrderId: `100004512_${sale.sofa}`, supplier: 'supplier-a' as const };
    await acknowledgeSupplierLine(api.runtime.salesDeps, line, systemContext());
    await shipSupplierLine(api.runtime.salesDeps, line, systemContext());
    await readModelsCaughtUp(api.runtime);
    const trackingNumber = sale.trackingOf(sale.sofa);

    const response = await api.get('/api/sale/details/100004512');

    expectJson(response, 200, {
      success: true,
      data: {
        id: sale.saleId,
        incrementId: '100004512',
        status: 'processing',
        created_at: '2026-10-02T09:14:00+02:00',
        order_date: '2026-10-02',
        grand_total: 1407.8,
        shipping_amount: 0,
        currency: 'EUR',
        customer: { firstname: 'Claire', lastname: 'Martin', email: 'Claire.Martin@example.org' },
        products: [
          {
            sale_product_id: sale.sofa,
            sku: 'CAN-OSLO-3P-GRY',
            name: 'Canapé 3 places Oslo gris',
            qty: 1,
            price: 649,
            tracking: trackingNumber,
            carrier: 'Geodis',
            availability: 'In Stock',
            stock_status: 'in_stock',
            delivery_status: 'shipped',
            shipped_at: nowAnswered,
            container_tracking: { tracking_number: trackingNumber, carrier: 'Geodis', tracking_url: null },
            refusal_reason: null,
          },
          {
            sale_product_id: sale.table,
            sku: 'TAB-NORD-180',
            name: 'Table à manger Nord 180 cm',
            qty: 1,
            price: 499,
            tracking: '',
            carrier: 'Colissimo',
            availability: 'Backorder',
            stock_status: 'backorder',
            delivery_status: 'pending',
            shipped_at: null,
            container_tracking: null,
            refusal_reason: null,
          },
          {
            sale_product_id: sale.lamp,
            sku: 'LAMP-ARC-BLK',
            name: 'Lampadaire arc noir',
            qty: 2,
            price: 129.9,
            tracking: '',
            carrier: '',
            availability: null,
            stock_status: null,
            delivery_status: 'pending',
            shipped_at: null,
            container_tracking: null,
            refusal_reason: null,
          },
        ],
        payment: { method: 'card', status: 'paid', amount_paid: 1407.8 },
        sav_status: { has_sav: false, sav_count: 0, in_progress_count: 0 },
        sav_history: [],
      },
    });
  });

  it('when a drop-shipped line is acknowledged and not shipped yet, it is acknowledged with the tracking number it was created with', async () => {
    const sale = await importOrder(api);
    await acknowledgeSupplierLine(api.runtime.salesDeps, { serviceOrderId: `100004512_${sale.sofa}`, supplier: 'supplier-a' }, systemContext());
    await readModelsCaughtUp(api.runtime);

    const response = await api.get('/api/sale/details/100004512');

    expect(response.status).toBe(200);
    expect(response.body.data.products[0]).toEqual({
      sale_product_id: sale.sofa,
      sku: 'CAN-OSLO-3P-GRY',
      name: 'Canapé 3 places Oslo gris',
      qty: 1,
      price: 649,
      tracking: sale.trackingOf(sale.sofa),
      carrier: 'Geodis',
      availability: 'In Stock',
      stock_status: 'in_stock',
      delivery_status: 'acknowledged',
      shipped_at: null,
      container_tracking: { tracking_number: sale.trackingOf(sale.sofa), carrier: 'Geodis', tracking_url: null },
      refusal_reason: null,
    });
  });

  it('when the order has SAVs, sav_status counts them and sav_history lists them with their status (spec line 115: "SAV status `in_progress`")', async () => {
    await importOrder(api);
    const first = await api.post('/api/sav', savRequest());
    const second = await api.post(
      '/api/sav',
      savRequest({ product_sku: 'LAMP-ARC-BLK', complaint_name: 'Pièce manquante', complaint: 'Il manque la vis du pied.' }),
    );

    const response = await api.get('/api/sale/details/100004512');

    const open = (id: number, complaintType: string, product: { sku: string; name: string }) => ({
      id,
      sale_ref: '100004512',
      status: 'in_progress',
      status_label: 'En cours de traitement',
      complaint_type: complaintType,
      created_at: nowAnswered,
      status_changed_at: nowAnswered,
      resolution: null,
      products: [product],
      files: [],
    });
    expectJson(response, 200, {
      ...response.body,
      data: {
        ...response.body.data,
        sav_status: { has_sav: true, sav_count: 2, in_progress_count: 2 },
        sav_history: [
          open(first.body.sav_id, 'Produit endommagé', { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris' }),
          open(second.body.sav_id, 'Pièce manquante', { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir' }),
        ],
      },
    });
  });

  it('when staff resolved one SAV of the order and cancelled the other, the details show both statuses and none in progress', async () => {
    await importOrder(api);
    const first: number = (await api.post('/api/sav', savRequest())).body.sav_id;
    const second: number = (
      await api.post('/api/sav', savRequest({ product_sku: 'LAMP-ARC-BLK', complaint_name: 'Pièce manquante', complaint: 'Il manque la vis du pied.' }))
    ).body.sav_id;
    const staff = staffChanges(api);
    await staff.resolve(first, 'Un pied neuf vous a été envoyé.');
    await staff.cancel(second, 'Vis retrouvée par la cliente');

    const { data } = (await api.get('/api/sale/details/100004512')).body;

    expect(data.sav_status).toEqual({ has_sav: true, sav_count: 2, in_progress_count: 0 });
    expect(data.sav_history.map(({ id, status, status_label, resolution }: Record<string, unknown>) => ({ id, status, status_label, resolution }))).toEqual([
      { id: first, status: 'resolved', status_label: 'Résolu', resolution: 'Un pied neuf vous a été envoyé.' },
      { id: second, status: 'cancelled', status_label: 'Annulé', resolution: null },
    ]);
  });

  it('when the order has no payment information, payment is given with null fields', async () => {
    const { payment: _payment, ...withoutPayment } = order({ increment_id: '100004513' });
    await importOrder(api, withoutPayment);

    const response = await api.get('/api/sale/details/100004513');

    expectJson(response, 200, { ...response.body, data: { ...response.body.data, payment: { method: null, status: null, amount_paid: null } } });
  });

  it('when no order has the increment ID, it answers 404 naming it', async () => {
    await importOrder(api);

    const response = await api.get('/api/sale/details/100000999');

    expectJson(response, 404, {
      success: false,
      error: 'Commande non trouvée',
      message: "Aucune commande trouvée avec l'increment_id 100000999",
    });
  });

  it('when the increment ID is not digits only, it answers 400 naming the field', async () => {
    const response = await api.get('/api/sale/details/10000A999');

    expectJson(response, 400, {
      success: false,
      error: 'Paramètres invalides',
      message: 'Le champ incrementId doit être une suite de 1 à 20 chiffres',
    });
  });
});
