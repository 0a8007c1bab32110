import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportReadRepairsTo, type ReadRepair } from '../../src/events/schema/read-repairs.ts';
import { omitted } from '../../src/events/sales/unknown-fields-bounds.ts';
import type { JsonObject } from '../../src/events/store/event-store.ts';
import { tooDeep } from '../../src/graphql/event-feed/withheld-fields.ts';
import { openSqliteReadStore } from '../../src/projections/read-store/sqlite-read-store.ts';
import { verifyReadModels } from '../../src/projections/verify.ts';
import { allProjections } from '../../src/projections/all-projections.ts';
import { startGraphqlApi, type GraphqlApi } from '../graphql/graphql-api.ts';
import { eventually } from '../support/eventually.ts';

/**
 * A log written before the fields beyond the import contract were bounded: an import then recorded
 * any unknown field that parsed, here one nested 2,000 levels deep. The log is never rewritten, so
 * every reader of it must read past that event: the event is read cut at today's bounds (SaleImported
 * version 2 upcast to 3, for every projection alike), the event feed shows its recorded data cut at
 * the depth it shows. A projection that does stop on an event is never silent: /health/ready answers
 * 503 naming it, and /metrics says so.
 */

const deep = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
};

const address = { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' };

/** SaleImported as version 2 of the service recorded it, with its unknown fields as sent. */
const poisonedImport = (): JsonObject => ({
  saleId: 9001,
  incrementId: '900000001',
  source: 'shopping-api',
  orderedAt: '2026-10-01T10:00:00+02:00',
  currency: 'EUR',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: null },
  shippingAddress: address,
  billingAddress: null,
  products: [
    {
      saleProductId: 90011,
      sku: 'BUF-CHENE',
      name: 'Buffet chêne',
      qty: 1,
      price: 649,
      wholesalePrice: 400,
      supplier: 'supplier-a',
      carrier: 'Geodis',
      requiresAppointment: false,
    },
  ],
  payment: { method: 'card', status: 'paid', amountPaid: 649 },
  shippingAmount: 0,
  grandTotal: 649,
  unknownFields: { marketplace_ref: 'MKP-1', extra: deep(2_000) as JsonObject },
  importedAt: '2026-10-01T08:00:05.000Z',
});

const appendAsRecorded = async (api: GraphqlApi, streamName: string, type: string, data: JsonObject, schemaVersion: number): Promise<number> => {
  const { position } = await api.runtime.eventStore.appendToStream(
    streamName,
    [
      {
        id: randomUUID(),
        type,
        data,
        metadata: { actor: { kind: 'system' }, correlationId: randomUUID(), causationId: randomUUID(), occurredAt: '2026-10-01T08:00:05.000Z', schemaVersion },
      },
    ],
    { expectedRevision: 'any' },
  );
  return position;
};

describe('a log holding an import whose unknown field nests 2,000 levels deep', () => {
  let api: GraphqlApi;
  let position: number;
  const repairs: ReadRepair[] = [];
  let stopCollecting: () => void;

  beforeAll(async () => {
    api = await startGraphqlApi();
    stopCollecting = reportReadRepairsTo((repair) => repairs.push(repair));
    position = await appendAsRecorded(api, 'sale-900000001', 'SaleImported', poisonedImport(), 2);
    await api.runtime.projections.waitFor(position, ['SaleImported']);
  });

  afterAll(async () => {
    stopCollecting();
    await api.close();
  });

  it('when the projections read it, every one keeps running and /health/ready answers 200', async () => {
    expect(api.runtime.projections.status().filter((projection) => !projection.running)).toEqual([]);
    const ready = await api.request.get('/health/ready');
    expect([ready.status, ready.body.status]).toEqual([200, 'ready']);
  });

  it('when the sale is looked up, it answers, its unknown fields read cut at the bounds and the cut reported', async () => {
    const sale = await api.request.get('/api/get-sale-info-by-increment-id/900000001').set('Authorization', `Bearer ${api.staffToken}`);
    expect(sale.status).toBe(200);
    const { saleAt } = await api.data(`{ saleAt(id: 9001, asOf: { position: ${position} }) { incrementId grandTotal } }`);
    expect(saleAt).toEqual({ incrementId: '900000001', grandTotal: 649 });
    expect(repairs.some((repair) => repair.position === position && repair.field === 'unknownFields')).toBe(true);
  });

  it('when an auditor pages the event feed over it, the page answers and the deep value is shown cut', async () => {
    const auditor = await api.tokenFor('auditor');
    const response = await api.post(`{ events(first: 5, types: ["SaleImported"]) { events { position data } } }`, undefined, auditor);

    expect(response.body.errors).toBeUndefined();
    const node = (response.body.data.events.events as { position: number; data: Record<string, any> }[])[0]!;
    expect(node.position).toBe(position);
    expect(node.data.unknownFields.marketplace_ref).toBe('MKP-1');
    expect(JSON.stringify(node.data)).toContain(tooDeep);
  });

  it('when the read models are rebuilt from the log, the rebuild completes and verify finds them equal to a replay', async () => {
    await api.runtime.projections.requestRebuild();
    await eventually(() => api.runtime.projections.status().every((projection) => !projection.rebuilding && projection.running), 30_000);

    const report = await verifyReadModels({
      eventStore: api.runtime.eventStore,
      live: api.runtime.readStore,
      projections: allProjections({ timezone: api.runtime.config.planningTimezone }),
      scratch: openSqliteReadStore({ file: ':memory:' }),
    });
    expect([report.ok, report.differenceCount]).toEqual([true, 0]);
  });

  it('when the cut reaches the values beyond the depth bound, what was kept reads as written and the rest as omitted', async () => {
    const sale = await api.runtime.eventStore.readStream('sale-900000001');
    const { decodeEvent } = await import('../../src/events/registry.ts');
    const decoded = decodeEvent(sale[0]!) as unknown as { data: { unknownFields: Record<string, unknown> } };
    expect(decoded.data.unknownFields.marketplace_ref).toBe('MKP-1');
    expect(JSON.stringify(decoded.data.unknownFields)).toBe(
      JSON.stringify({ marketplace_ref: 'MKP-1', extra: { a: { a: { a: { a: { a: { a: { a: omitted } } } } } } } }),
    );
  });

  it('when an event no projection can read is appended, the projections reading it stop, and /health/ready answers 503 naming them', async () => {
    // A shipment whose data no version of the service ever wrote: it cannot be decoded.
    const broken = await appendAsRecorded(api, 'sale-900000001', 'SaleProductShipped', { saleId: 'nine thousand and one' }, 1);
    await api.runtime.projections.waitFor(broken, ['SaleProductShipped']);

    const ready = await api.request.get('/health/ready');
    expect(ready.status).toBe(503);
    const stopped = (ready.body.stoppedProjections as { name: string; error: string }[]).map((projection) => projection.name).sort();
    expect(stopped).toContain('supplier-lines');
    expect(ready.body.stoppedProjections[0].error).toMatch(`SaleProductShipped at position ${broken}`);
    const metrics = await api.request.get('/metrics').set('Authorization', `Bearer ${api.token}`);
    expect(metrics.text).toMatch(/^projection_running\{projection="supplier-lines"\} 0$/m);
    expect(metrics.text).toMatch(/^projection_running\{projection="leads"\} 1$/m);
  });
});
