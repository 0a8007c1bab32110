import { describe, expect, it } from 'vitest';
import { saleStreamName } from '../../src/events/sales/events.ts';
import { startApi } from '../support/api-harness.ts';
import type { Backends } from '../support/backends.ts';
import { anOrder, importPath } from './core/orders/orders-api.ts';

describe('the API under test', () => {
  it('when TEST_BACKENDS names production stores, it runs on them, and on the embedded ones otherwise', async () => {
    const api = await startApi();
    try {
      const backends = process.env.TEST_BACKENDS ?? 'embedded';
      expect(api.runtime.config.eventStoreUrl?.startsWith('esdb://') ?? false).toBe(backends === 'production' || backends === 'eventstoredb');
      expect(api.runtime.config.mongodbUrl?.startsWith('mongodb://') ?? false).toBe(backends === 'production' || backends === 'mongodb');
      // A write goes through whichever store that is and is read back through the read models.
      const token = await api.tokenFor('core', 'backends-check');
      const answer = await api.request.get('/api/sav-holidays').set('Authorization', `Bearer ${token}`);
      expect(answer.status).toBe(200);
      expect(await api.runtime.eventStore.headPosition()).toBeGreaterThanOrEqual(0);
    } finally {
      await api.close();
    }
  });
});

describe('the event store and the read store are chosen independently', () => {
  const combinations: { backends: Backends; events: 'EventStoreDB' | 'embedded'; readModels: 'MongoDB' | 'in memory' }[] = [
    { backends: 'embedded', events: 'embedded', readModels: 'in memory' },
    { backends: 'mongodb', events: 'embedded', readModels: 'MongoDB' },
    { backends: 'eventstoredb', events: 'EventStoreDB', readModels: 'in memory' },
    { backends: 'production', events: 'EventStoreDB', readModels: 'MongoDB' },
  ];

  it.each(combinations)('with $events events and $readModels read models, an imported order is answered by the sale lookup', async ({ backends, events, readModels }) => {
    const api = await startApi({ backends });
    try {
      expect(api.runtime.config.eventStoreUrl !== undefined).toBe(events === 'EventStoreDB');
      expect(api.runtime.config.mongodbUrl !== undefined).toBe(readModels === 'MongoDB');
      const token = await api.tokenFor('core', 'storefront');
      // Own stock only: no shipping label is rendered after the answer, which the end of the spec could cut short.
      const order = anOrder({
        items: [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null }],
        payment: { method: 'card', status: 'paid', amount_paid: 259.8 },
        grand_total: 259.8,
      });

      const imported = await api.request.post(importPath).set('Authorization', `Bearer ${token}`).send(order);
      expect(imported.status).toBe(201);
      const sale = await api.request.get(imported.headers.location as string).set('Authorization', `Bearer ${token}`);

      expect(sale.status).toBe(200);
      expect(sale.body).toMatchObject({ id: imported.body.sale_id, increment_id: order.increment_id, status: 'processing' });
      expect((await api.runtime.eventStore.readStream(saleStreamName(order.increment_id))).map((event) => event.type)).toContain('SaleImported');
    } finally {
      await api.close();
    }
  });
});
