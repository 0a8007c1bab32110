import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder, importPath, startOrdersApi, type OrdersApi } from './orders-api.ts';

/**
 * POST /api/api-add-new-order-api-shopping with a business customer: its identifiers are checked with
 * their keys before anything is recorded, and the sale answers the company it recorded.
 */

// A fictitious company: SIREN 443 061 841, valid in form.
const company = { company_name: 'Atelier Martin SARL', siret: '44306184100013', vat_number: 'FR64443061841' };

/** From own stock: no label to render, so the spec does not wait on one. */
const anOwnStockOrder = () =>
  anOrder({ items: [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null }], grand_total: 259.8 });

describe('POST /api/api-add-new-order-api-shopping: a business customer', () => {
  let api: OrdersApi;
  beforeAll(async () => {
    api = await startOrdersApi();
  });
  afterAll(async () => api.close());

  it.each([
    [
      'its SIREN has a wrong check digit',
      { company_name: 'Atelier Martin SARL', siren: '443061842' },
      'business_customer.siren: not a SIREN: its check digit is wrong',
    ],
    ['its SIRET has a wrong check digit', { ...company, siret: '44306184100014' }, 'business_customer.siret: not a SIRET: its check digit is wrong'],
    [
      'its VAT number has a wrong key',
      { ...company, vat_number: 'FR65443061841' },
      'business_customer.vat_number: not the VAT number of the SIREN 443 061 841, which is FR64443061841',
    ],
  ])('when %s, it answers 400 naming the field and records nothing', async (_case, business_customer, message) => {
    const before = await api.runtime.eventStore.headPosition();

    const response = await api.post(importPath, { ...anOwnStockOrder(), business_customer });

    expect([response.status, response.body]).toEqual([400, { success: false, error: 'invalid_request', message }]);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
  });

  it('when its identifiers are valid, the order is imported and the sale answers the company, its SIREN from the SIRET', async () => {
    const imported = await api.post(importPath, { ...anOwnStockOrder(), business_customer: company });
    expect(imported.status).toBe(201);

    const sale = await api.request.get(`/api/sale/${imported.body.sale_id}`).set('Authorization', `Bearer ${api.coreToken}`);
    expect(sale.body.business_customer).toEqual({
      company_name: 'Atelier Martin SARL',
      siren: '443061841',
      siret: '44306184100013',
      vat_number: 'FR64443061841',
    });
  });

  it('when a consumer order is imported, the sale answers no company', async () => {
    const imported = await api.post(importPath, anOwnStockOrder());
    const sale = await api.request.get(`/api/sale/${imported.body.sale_id}`).set('Authorization', `Bearer ${api.coreToken}`);
    expect([imported.status, sale.body.business_customer]).toEqual([201, null]);
  });

  it('when the same order comes again as a business one, it answers 409 naming business_customer, and records nothing', async () => {
    const order = anOwnStockOrder();
    await api.post(importPath, order);
    const before = await api.runtime.eventStore.headPosition();

    const again = await api.post(importPath, { ...order, business_customer: company });

    expect([again.status, again.body.differences]).toEqual([409, ['business_customer']]);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
  });
});
