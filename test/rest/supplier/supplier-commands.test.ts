import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/events/command-context.ts';
import type { SupplierName } from '../../../src/events/schema/common-schemas.ts';
import { readDomainStream } from '../../../src/events/domain-store.ts';
import { cancelSale } from '../../../src/events/sales/cancel-sale.ts';
import { saleStreamName, type SaleEvent } from '../../../src/events/sales/events.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import { findSupplierLine } from '../../../src/projections/supplier-lines/queries.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../support/api-harness.ts';
import {
  acknowledgedBody,
  anOrder,
  baseUrl,
  bearer,
  importLine,
  importOrder,
  invalidIdBody,
  jsonUtf8,
  nothingDeliverableBody,
  notFoundBody,
  shippedBody,
} from './supplier-fixtures.ts';

const now = new Date('2026-10-05T07:30:00.000Z');
const incrementIdOf = (serviceOrderId: string): string => serviceOrderId.split('_')[0]!;

describe('POST /api/{supplier}/acknowledge-sale and /ship-sale', () => {
  let api: ApiHarness;
  const tokens = {} as Record<SupplierName, string>;
  beforeAll(async () => {
    api = await startApi({ env: { BASE_URL: baseUrl }, clock: { now: () => now } });
    tokens['supplier-a'] = await api.tokenFor('supplier-a');
    tokens['supplier-b'] = await api.tokenFor('supplier-b');
  });
  afterAll(async () => api.close());

  const post = (supplier: SupplierName, operation: 'acknowledge-sale' | 'ship-sale', body: unknown) =>
    api.request
      .post(`/api/${supplier}/${operation}`)
      .set(bearer(tokens[supplier]))
      .send(body as object);
  const eventTypes = async (serviceOrderId: string): Promise<string[]> =>
    (await readDomainStream<SaleEvent>(api.runtime.eventStore, saleStreamName(incrementIdOf(serviceOrderId)))).events.map((event) => event.type);
  const expectAnswer = (response: { status: number; headers: Record<string, string>; text: string }, status: number, body: object) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe(jsonUtf8);
    expect(response.text).toBe(JSON.stringify(body));
  };

  /** A line of `supplier` in each state a supplier can meet. */
  const linesInEveryState = async (supplier: SupplierName) => {
    const order = anOrder([{ supplier }, { supplier }, { supplier }, { supplier }, { supplier: supplier === 'supplier-a' ? 'supplier-b' : 'supplier-a' }]);
    const [open, acknowledged, shipped, cancelled, otherSuppliers] = (await importOrder(api, order)) as [string, string, string, string, string];
    await acknowledgeSupplierLine(api.runtime.salesDeps, { serviceOrderId: acknowledged, supplier }, systemContext());
    await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: shipped, supplier }, systemContext());
    const cancelledId = Number(cancelled.split('_')[1]);
    await cancelSale(api.runtime.salesDeps, { incrementId: order.increment_id, saleProductIds: [cancelledId], reason: 'rupture' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    return { open, acknowledged, shipped, cancelled, otherSuppliers, unknownProduct: `${order.increment_id}_999999`, unknownOrder: '1_2' };
  };

  const malformed: readonly [string, unknown][] = [
    ['no service_order_id', {}],
    ['a number', { service_order_id: 100004512 }],
    ['null', { service_order_id: null }],
    ['no sale product', { service_order_id: '100004512' }],
    ['a trailing underscore', { service_order_id: '100004512_' }],
    ['letters', { service_order_id: 'abc_12' }],
    ['three parts', { service_order_id: '1_2_3' }],
    ['spaces', { service_order_id: ' 100004512_3' }],
    ['an array body', [{ service_order_id: '100004512_3' }]],
  ];

  for (const supplier of ['supplier-a', 'supplier-b'] as const) {
    describe(supplier, () => {
      it('when the line is open, acknowledging answers success and the line stays listed, acknowledged', async () => {
        const line = await importLine(api, supplier);
        expectAnswer(await post(supplier, 'acknowledge-sale', { service_order_id: line }), 200, acknowledgedBody);
        expect(await eventTypes(line)).toEqual(['SaleImported', 'TrackingNumberAllocated', 'SaleProductAcknowledged']);
        expect((await findSupplierLine(api.runtime.readStore, line))?.acknowledgedAt).toBe(now.toISOString());
        const listing = await api.request.get(`/api/${supplier}/get-sales?order_number=${incrementIdOf(line)}`).set(bearer(tokens[supplier]));
        expect(listing.body.map((entry: { service_order_id: string }) => entry.service_order_id)).toEqual([line]);
      });

      it("when the line is unknown, the other supplier's, cancelled, shipped or already acknowledged, acknowledging answers the 404 and changes nothing", async () => {
        const lines = await linesInEveryState(supplier);
        const before = await eventTypes(lines.open);
        for (const line of [lines.acknowledged, lines.shipped, lines.cancelled, lines.otherSuppliers, lines.unknownProduct, lines.unknownOrder]) {
          expectAnswer(await post(supplier, 'acknowledge-sale', { service_order_id: line }), 404, notFoundBody);
        }
        expect(await eventTypes(lines.open)).toEqual(before);
      });

      it('when the line is open, acknowledged or not, shipping answers success, sets prepared_at and the line leaves the listing', async () => {
        const lines = await linesInEveryState(supplier);
        for (const line of [lines.open, lines.acknowledged]) {
          expectAnswer(await post(supplier, 'ship-sale', { service_order_id: line }), 200, shippedBody);
          const document = await findSupplierLine(api.runtime.readStore, line);
          expect(document?.preparedAt).toBe(now.toISOString());
          expect(document?.open).toBe(false);
        }
        const listing = await api.request.get(`/api/${supplier}/get-sales?order_number=${incrementIdOf(lines.open)}`).set(bearer(tokens[supplier]));
        expect(listing.body).toEqual([]);
      });

      it("when nothing is deliverable (unknown, the other supplier's, cancelled or already shipped), shipping answers 200 success false and changes nothing", async () => {
        const lines = await linesInEveryState(supplier);
        const before = await eventTypes(lines.open);
        for (const line of [lines.shipped, lines.cancelled, lines.otherSuppliers, lines.unknownProduct, lines.unknownOrder]) {
          expectAnswer(await post(supplier, 'ship-sale', { service_order_id: line }), 200, nothingDeliverableBody);
        }
        expect(await eventTypes(lines.open)).toEqual(before);
      });

      for (const operation of ['acknowledge-sale', 'ship-sale'] as const) {
        for (const [what, body] of malformed) {
          it(`when ${operation} gets ${what} as service_order_id, it answers the 400`, async () => {
            expectAnswer(await post(supplier, operation, body), 400, invalidIdBody);
          });
        }

        it(`when ${operation} gets thirty concurrent calls for one line, exactly one succeeds`, async () => {
          const line = await importLine(api, supplier);
          const responses = await Promise.all(Array.from({ length: 30 }, () => post(supplier, operation, { service_order_id: line })));
          const successes = responses.filter((response) => response.body.success === true);
          expect(successes).toHaveLength(1);
          if (operation === 'ship-sale') {
            expect(responses.filter((response) => response.status === 200 && response.text === JSON.stringify(nothingDeliverableBody))).toHaveLength(29);
            expect(await eventTypes(line)).toEqual(['SaleImported', 'TrackingNumberAllocated', 'SaleProductShipped']);
          } else {
            expect(responses.filter((response) => response.status === 404 && response.text === JSON.stringify(notFoundBody))).toHaveLength(29);
            expect(await eventTypes(line)).toEqual(['SaleImported', 'TrackingNumberAllocated', 'SaleProductAcknowledged']);
          }
        });
      }
    });
  }

  describe('bodies', () => {
    it('when the body is not JSON at all, it answers 415 in the supplier envelope, not a missing field', async () => {
      const response = await api.request
        .post('/api/supplier-a/acknowledge-sale')
        .set(bearer(tokens['supplier-a']))
        .set('Content-Type', 'text/plain')
        .send('service_order_id=1_2');
      expectAnswer(response, 415, { success: false, message: 'The request body must be JSON' });
    });
  });

  describe('methods', () => {
    it('when a command route is called with GET, or get-sales with POST, it answers 405 in the supplier envelope', async () => {
      const onCommand = await api.request.get('/api/supplier-a/ship-sale').set(bearer(tokens['supplier-a']));
      expectAnswer(onCommand, 405, { success: false, message: 'Use POST on this route' });
      expect(onCommand.headers.allow).toBe('POST');
      const onListing = await api.request.post('/api/supplier-b/get-sales').set(bearer(tokens['supplier-b'])).send({});
      expectAnswer(onListing, 405, { success: false, message: 'Use GET, HEAD on this route' });
    });
  });
});
