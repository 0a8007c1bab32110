import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportReadRepairsTo, type ReadRepair } from '../../src/events/schema/read-repairs.ts';
import type { JsonObject } from '../../src/events/store/event-store.ts';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';

/**
 * A log written before amounts were bounded: the import then took any number, so it may hold a grand
 * total of 1e308, a price of 1e308, a refund of 1e308, and a total an overflowed sum wrote as null.
 * Those events are appended here directly to the store, at schema version 1, as such a log holds them;
 * the service reads them within the bounds, and the dashboard and the sale lookups answer.
 */

const address = { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' };

const saleImportedV1 = (saleId: number, incrementId: string, products: { price: number; qty: number }[], grandTotal: number | null): JsonObject => ({
  saleId,
  incrementId,
  source: 'shopping-api',
  orderedAt: '2026-09-14T10:00:00+02:00',
  currency: 'EUR',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: null },
  shippingAddress: address,
  billingAddress: null,
  products: products.map(({ price, qty }, index) => ({
    saleProductId: saleId * 10 + index,
    sku: `OLD-${saleId}-${index}`,
    name: 'Buffet chêne',
    qty,
    price,
    wholesalePrice: null,
    supplier: null,
    carrier: null,
    requiresAppointment: false,
  })),
  payment: { method: 'card', status: 'paid', amountPaid: grandTotal },
  shippingAmount: 0,
  grandTotal,
  importedAt: '2026-09-14T08:00:05.000Z',
});

/** Appends events as an old version of the service recorded them: schema version 1. */
const appendV1 = async (api: GraphqlApi, streamName: string, events: { type: string; data: JsonObject }[]) => {
  const { position } = await api.runtime.eventStore.appendToStream(
    streamName,
    events.map(({ type, data }) => ({
      id: randomUUID(),
      type,
      data,
      metadata: { actor: { kind: 'system' }, correlationId: randomUUID(), causationId: randomUUID(), occurredAt: '2026-09-14T08:00:05.000Z', schemaVersion: 1 },
    })),
    { expectedRevision: 'no_stream' },
  );
  await api.runtime.projections.waitFor(
    position,
    events.map(({ type }) => type),
  );
};

const dashboardOfTheDay = `{
  dashboard(from: "2026-09-14", to: "2026-09-14", granularity: DAY) {
    buckets { orders revenue averageBasket refundRequested }
    totals { orders revenue averageBasket refundRequested }
  }
}`;

const saleLookup = `query($incrementId: String!) {
  sale(incrementId: $incrementId) { grandTotal products { price qty } refunds { amount } }
}`;

describe('a log holding amounts written before they were bounded', () => {
  let api: GraphqlApi;
  const repairs: ReadRepair[] = [];
  let stopCollecting: () => void;
  beforeAll(async () => {
    api = await startGraphqlApi();
    stopCollecting = reportReadRepairsTo((repair) => repairs.push(repair));
    // A total of 1e308 over a line of 649.
    await appendV1(api, 'sale-900000001', [{ type: 'SaleImported', data: saleImportedV1(9001, '900000001', [{ price: 649, qty: 1 }], 1e308) }]);
    // A line priced 1e308 (and the total the old import took with it), then its refund.
    await appendV1(api, 'sale-900000002', [
      { type: 'SaleImported', data: saleImportedV1(9002, '900000002', [{ price: 1e308, qty: 1 }], 1e308) },
      {
        type: 'RefundRequested',
        data: {
          saleId: 9002,
          refundId: 9002,
          amount: 1e308,
          currency: 'EUR',
          reason: 'Annulation',
          saleProductIds: [90020],
          requestedAt: '2026-09-14T12:00:00+02:00',
        },
      },
    ]);
    // A total an overflowed sum wrote as null (JSON has no Infinity).
    await appendV1(api, 'sale-900000003', [{ type: 'SaleImported', data: saleImportedV1(9003, '900000003', [{ price: 19.99, qty: 3 }], null) }]);
  });
  afterAll(async () => {
    stopCollecting();
    await api.close();
  });

  it('when the dashboard is asked for that day, it answers the revenue of the amounts read within the bounds', async () => {
    const { dashboard } = await api.data(dashboardOfTheDay);

    // 649 (recomputed) + 1,000,000 (the price read at the bound) + 59.97 (recomputed).
    const day = { orders: 3, revenue: 1_000_708.97, averageBasket: 333_569.66, refundRequested: 1_000_000 };
    expect(dashboard).toEqual({ buckets: [day], totals: day });
  });

  it('when the sales are looked up, GraphQL answers them with their totals recomputed from their lines', async () => {
    const totals = await Promise.all(['900000001', '900000002', '900000003'].map(async (incrementId) => (await api.data(saleLookup, { incrementId })).sale));

    expect(totals).toEqual([
      { grandTotal: 649, products: [{ price: 649, qty: 1 }], refunds: [] },
      { grandTotal: 1_000_000, products: [{ price: 1_000_000, qty: 1 }], refunds: [{ amount: 1_000_000 }] },
      { grandTotal: 59.97, products: [{ price: 19.99, qty: 3 }], refunds: [] },
    ]);
  });

  it('when the core API looks a sale up, it answers 200 with the amounts within the bounds', async () => {
    const core = await api.tokenFor('core');

    const response = await api.request.get('/api/get-sale-info-by-increment-id/900000002').set('Authorization', `Bearer ${core}`);

    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body)).not.toMatch(/e\+308|Infinity|null,"grand_total"/);
    expect(response.body).toMatchObject({ increment_id: '900000002', grand_total: 1_000_000 });
  });

  it('when such an event is read, each repair is reported with the event, its position and the values', () => {
    const fields = new Set(repairs.map((repair) => `${repair.type} ${repair.streamName} ${repair.field}: ${String(repair.recorded)} -> ${repair.read}`));

    expect([...fields].sort()).toEqual([
      'RefundRequested sale-900000002 amount: 1e+308 -> 1000000',
      'SaleImported sale-900000001 grandTotal: 1e+308 -> 649',
      'SaleImported sale-900000001 payment.amountPaid: 1e+308 -> 1000000',
      'SaleImported sale-900000002 grandTotal: 1e+308 -> 1000000',
      'SaleImported sale-900000002 payment.amountPaid: 1e+308 -> 1000000',
      'SaleImported sale-900000002 products.0.price: 1e+308 -> 1000000',
      'SaleImported sale-900000003 grandTotal: null -> 59.97',
    ]);
    expect(repairs.every((repair) => Number.isInteger(repair.position) && repair.reason.length > 0)).toBe(true);
  });
});
