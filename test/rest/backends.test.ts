import { describe, expect, it } from 'vitest';
import { startEsdbTestServer } from '../support/esdb-server/server.ts';
import { accessTokenStreamName } from '../../src/events/access/events.ts';
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
      // The log starts empty: its head is the token's event, the only one.
      const issued = await api.runtime.eventStore.readStream(accessTokenStreamName(token.split('.')[0]!));
      expect(issued.map((event) => event.type)).toEqual(['AccessTokenIssued']);
      expect(await api.runtime.eventStore.headPosition()).toBe(issued[0]!.position);
    } finally {
      await api.close();
    }
  });
});

/** Own stock only: no shipping label is rendered after the answer, which the end of a spec could cut short. */
const ownStockOrder = (incrementId?: string) =>
  anOrder({
    ...(incrementId && { increment_id: incrementId }),
    items: [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null }],
    payment: { method: 'card', status: 'paid', amount_paid: 259.8 },
    grand_total: 259.8,
  });

describe('the event store and the read store are chosen independently', () => {
  const combinations: { backends: Backends; events: 'EventStoreDB' | 'embedded'; readModels: 'MongoDB' | 'in memory' }[] = [
    { backends: 'embedded', events: 'embedded', readModels: 'in memory' },
    { backends: 'mongodb', events: 'embedded', readModels: 'MongoDB' },
    { backends: 'eventstoredb', events: 'EventStoreDB', readModels: 'in memory' },
    { backends: 'production', events: 'EventStoreDB', readModels: 'MongoDB' },
  ];

  it.each(combinations)(
    'with $events events and $readModels read models, an imported order is answered by the sale lookup',
    async ({ backends, events, readModels }) => {
      const api = await startApi({ backends });
      try {
        expect(api.runtime.config.eventStoreUrl !== undefined).toBe(events === 'EventStoreDB');
        expect(api.runtime.config.mongodbUrl !== undefined).toBe(readModels === 'MongoDB');
        const token = await api.tokenFor('core', 'storefront');
        const order = ownStockOrder();

        const imported = await api.request.post(importPath).set('Authorization', `Bearer ${token}`).send(order);
        expect(imported.status).toBe(201);
        const sale = await api.request.get(imported.headers.location as string).set('Authorization', `Bearer ${token}`);

        expect(sale.status).toBe(200);
        expect(sale.body).toMatchObject({ id: imported.body.sale_id, increment_id: order.increment_id, status: 'processing' });
        // Own stock only: the sale alone, no tracking number.
        expect((await api.runtime.eventStore.readStream(saleStreamName(order.increment_id))).map((event) => event.type)).toEqual(['SaleImported']);
      } finally {
        await api.close();
      }
    },
  );
});

describe('EVENTSTORE_NAMESPACE: services sharing one EventStoreDB', () => {
  it('when two services in their own namespaces import the same order, each has it once, as new, with its own sale ID sequence', async () => {
    const server = await startEsdbTestServer();
    const inNamespace = (namespace: string) => startApi({ backends: 'embedded', env: { EVENTSTORE_URL: server.url, EVENTSTORE_NAMESPACE: namespace } });
    const [staging, qa] = [await inNamespace('staging'), await inNamespace('qa')];
    try {
      const order = ownStockOrder(String(900_000_000 + Math.floor(Math.random() * 1_000_000)));
      const answers = [];
      for (const api of [staging, qa]) {
        const token = await api.tokenFor('core', 'storefront');
        answers.push(await api.request.post(importPath).set('Authorization', `Bearer ${token}`).send(order));
      }

      expect(answers.map((answer) => [answer.status, answer.body.created])).toEqual([
        [201, true],
        [201, true],
      ]);
      expect(answers[0]!.body.sale_id).toBe(answers[1]!.body.sale_id);
      // The server holds two streams, one per namespace; neither service sees the other's.
      for (const namespace of ['staging', 'qa']) {
        expect(await server.store.readStream(`${namespace}.${saleStreamName(order.increment_id)}`)).toHaveLength(1);
      }
      expect(await server.store.readStream(saleStreamName(order.increment_id))).toEqual([]);
      expect((await staging.runtime.eventStore.readAll({ filter: { eventTypes: ['SaleImported'] } })).map((event) => event.streamName)).toEqual([
        saleStreamName(order.increment_id),
      ]);
    } finally {
      await Promise.all([staging, qa].map((api) => api.close()));
      await server.stop();
    }
  });
});
