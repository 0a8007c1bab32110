import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { startApi } from '../support/api-harness.ts';
import { importOrder, order, savRequest, seedCatalog } from './chatbot/chatbot-api.ts';

/**
 * Issue: "Every timestamp in every API answers in one documented format (ISO 8601 with the planning time
 * zone's offset, as the orders do)". The order below is exported in UTC (`…Z`); events are recorded in
 * UTC with milliseconds; every answer, REST or GraphQL, core or chatbot, writes them alike.
 */

const oneFormat = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const anyInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Every string of an answer that starts like an instant, with where it sits. */
const instantsIn = (value: unknown, path = ''): [string, string][] => {
  if (typeof value === 'string') return anyInstant.test(value) ? [[path, value]] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => instantsIn(item, `${path}.${index}`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => instantsIn(item, `${path}.${key}`));
  return [];
};

const startInZone = async (timezone: string) => {
  // 08:00:00.250 UTC: a recorded instant with milliseconds.
  const api = await startApi({ clock: { now: () => new Date('2026-10-05T08:00:00.250Z') }, env: { PLANNING_TIMEZONE: timezone } });
  await seedCatalog(api);
  const sale = await importOrder(api, order({ created_at: '2026-10-02T07:14:00Z' }));
  await acknowledgeSupplierLine(api.runtime.salesDeps, { serviceOrderId: `100004512_${sale.sofa}`, supplier: 'supplier-a' }, systemContext());
  await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `100004512_${sale.sofa}`, supplier: 'supplier-a' }, systemContext());
  const chatbot = await api.tokenFor('chatbot');
  const core = await api.tokenFor('core');
  const analyst = await api.tokenFor('analyst');
  const opened = await api.request.post('/api/sav').set('X-API-Token', chatbot).send(savRequest());
  expect(opened.status).toBe(200);
  const answers = {
    coreSale: (await api.request.get(`/api/sale/${sale.saleId}`).set('Authorization', `Bearer ${core}`)).body,
    chatbotSale: (await api.request.get('/api/sale/details/100004512').set('X-API-Token', chatbot)).body,
    customer: (await api.request.get('/api/Customer/details/claire.martin@example.org').set('X-API-Token', chatbot)).body,
    savStatus: (await api.request.get('/api/customer/sav-status?increment_id=100004512').set('X-API-Token', chatbot)).body,
    graphql: (
      await api.request
        .post('/graphql')
        .set('Authorization', `Bearer ${analyst}`)
        .send({ query: `{ sale(id: ${sale.saleId}) { orderedAt products { shippedAt acknowledgedAt } } }` })
    ).body,
  };
  return { api, sale, answers };
};

describe('Spec: "customer.orders[] ... created_at (string, date)", "created_at | string (date)": every timestamp in every API in one format', () => {
  let paris: Awaited<ReturnType<typeof startInZone>>;
  beforeAll(async () => {
    paris = await startInZone('Europe/Paris');
  });
  afterAll(async () => paris.api.close());

  it('every instant of every answer, core, chatbot and GraphQL, is at the second with an offset', () => {
    const instants = Object.entries(paris.answers).flatMap(([answer, body]) => instantsIn(body, answer));

    expect(instants.length).toBeGreaterThan(10);
    expect(instants.filter(([, value]) => !oneFormat.test(value))).toEqual([]);
  });

  it('the order exported in UTC is answered at Paris time, like the events recorded by the service', () => {
    const { coreSale, chatbotSale, customer, savStatus, graphql } = paris.answers;

    expect(coreSale.created_at).toBe('2026-10-02T09:14:00+02:00');
    expect(coreSale.imported_at).toBe('2026-10-05T10:00:00+02:00');
    expect(coreSale.products[0].prepared_at).toBe('2026-10-05T10:00:00+02:00');
    expect(chatbotSale.data.created_at).toBe('2026-10-02T09:14:00+02:00');
    expect(customer.customer.orders[0].created_at).toBe('2026-10-02T09:14:00+02:00');
    expect(savStatus.sav_records[0].created_at).toBe('2026-10-05T10:00:00+02:00');
    expect(graphql.data.sale.orderedAt).toBe('2026-10-02T09:14:00+02:00');
    expect(graphql.data.sale.products[0]).toEqual({ shippedAt: '2026-10-05T10:00:00+02:00', acknowledgedAt: '2026-10-05T10:00:00+02:00' });
  });

  it('dates stay dates: the order date is the Paris calendar day', () => {
    expect(paris.answers.coreSale.order_date).toBe('2026-10-02');
  });

  it('with another planning time zone, the same instants carry that zone’s offset', async () => {
    const montreal = await startInZone('America/Montreal');
    try {
      expect(montreal.answers.coreSale.created_at).toBe('2026-10-02T03:14:00-04:00');
      expect(montreal.answers.savStatus.sav_records[0].created_at).toBe('2026-10-05T04:00:00-04:00');
      expect(montreal.answers.graphql.data.sale.products[0].shippedAt).toBe('2026-10-05T04:00:00-04:00');
    } finally {
      await montreal.api.close();
    }
  });
});
