import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSale } from '../../../src/events/sales/import-sale.ts';
import { formatTrackingNumber, isTrackingNumber } from '../../../src/events/sales/tracking-number.ts';
import { readDomainStream } from '../../../src/events/domain-store.ts';
import { sequenceStreamName, type IdEvent } from '../../../src/events/ids/events.ts';
import { anOrder, frozenNow, openSalesHarness, type SalesHarness } from './sales-harness.ts';

describe('importing an order', () => {
  let harness: SalesHarness;
  beforeEach(async () => {
    harness = await openSalesHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it('when the order is new, records the sale with one ID per line and answers it created', async () => {
    const order = anOrder();
    const result = await importSale(harness.deps, order, harness.context);

    expect(result.created).toBe(true);
    expect(result.incrementId).toBe(order.increment_id);
    expect(result.saleProductIds).toHaveLength(2);
    expect(new Set(result.saleProductIds).size).toBe(2);
    const events = await harness.saleEvents(order.increment_id);
    expect(events.map((event) => event.type)).toEqual(['SaleImported', 'TrackingNumberAllocated']);
    expect(events[0]?.data).toMatchObject({
      saleId: result.saleId,
      importedAt: frozenNow.toISOString(),
      products: result.saleProductIds.map((saleProductId) => ({ saleProductId })),
    });
    expect(events[0]?.metadata.actor).toEqual(harness.context.actor);
  });

  it('when the same order is imported twice, answers the same IDs and records one sale', async () => {
    const order = anOrder();
    const first = await importSale(harness.deps, order, harness.context);
    const second = await importSale(harness.deps, order, harness.context);

    const { written: _written, ...firstAnswer } = first;
    expect(second).toEqual({ ...firstAnswer, created: false });
    expect((await harness.saleEvents(order.increment_id)).map((event) => event.type)).toEqual(['SaleImported', 'TrackingNumberAllocated']);
  });

  it('when the order comes again with other content, the recorded sale stands', async () => {
    const order = anOrder();
    const first = await importSale(harness.deps, order, harness.context);
    const changed = { ...order, items: [{ sku: 'X', name: 'Other', qty_ordered: 5, price: 1 }] };
    const second = await importSale(harness.deps, changed, harness.context);

    const { written: _written, ...firstAnswer } = first;
    expect(second).toEqual({ ...firstAnswer, created: false });
    const [imported] = await harness.saleEvents(order.increment_id);
    expect(imported?.type === 'SaleImported' && imported.data.products.map((product) => product.sku)).toEqual(['CAN-OSLO-3P-GRY', 'LAMP-ARC-BLK']);
  });

  it('when a line leaves out what the catalog knows, records the catalog supplier, wholesale price and carrier', async () => {
    const looked: string[] = [];
    const deps = {
      ...harness.deps,
      findProduct: async (sku: string) => {
        looked.push(sku);
        return sku === 'TAB-NORD-180' ? { wholesale_price: 310, supplier: 'supplier-b' as const, carrier: 'Geodis' } : null;
      },
    };
    const order = anOrder({ items: [{ sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499 }] });
    await importSale(deps, order, harness.context);

    expect(looked).toEqual(['TAB-NORD-180']);
    const [imported] = await harness.saleEvents(order.increment_id);
    expect(imported?.type === 'SaleImported' && imported.data.products[0]).toMatchObject({ supplier: 'supplier-b', wholesalePrice: 310, carrier: 'Geodis' });
  });

  it('when the order has supplier lines, each is created with its own tracking number, in the same append as the sale', async () => {
    const order = anOrder({
      items: [
        { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: 'supplier-a', carrier: 'Geodis' },
        { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
        { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: 'supplier-b', carrier: 'DB Schenker' },
      ],
    });
    const result = await importSale(harness.deps, order, harness.context);

    const [imported, ...allocated] = await harness.saleEvents(order.increment_id);
    expect(allocated.map((event) => event.type === 'TrackingNumberAllocated' && event.data)).toEqual([
      {
        saleId: result.saleId,
        saleProductId: result.saleProductIds[0],
        supplier: 'supplier-a',
        trackingNumber: expect.any(String),
        allocatedAt: frozenNow.toISOString(),
      },
      {
        saleId: result.saleId,
        saleProductId: result.saleProductIds[2],
        supplier: 'supplier-b',
        trackingNumber: expect.any(String),
        allocatedAt: frozenNow.toISOString(),
      },
    ]);
    const numbers = allocated.map((event) => (event.type === 'TrackingNumberAllocated' ? event.data.trackingNumber : ''));
    expect(numbers.every(isTrackingNumber)).toBe(true);
    expect(new Set(numbers).size).toBe(2);
    // One append: the lines never exist without their numbers, and the metadata tells they were caused together.
    expect(allocated.map((event) => event.position - imported!.position)).toEqual([1, 2]);
    expect(new Set([imported, ...allocated].map((event) => event!.metadata.correlationId)).size).toBe(1);
  });

  it('when orders are imported, their tracking numbers are the tracking sequence numbers, each once', async () => {
    const orders = [anOrder(), anOrder()];
    for (const order of orders) await importSale(harness.deps, order, harness.context);

    const numbers = [];
    for (const order of orders) {
      for (const event of await harness.saleEvents(order.increment_id)) if (event.type === 'TrackingNumberAllocated') numbers.push(event.data.trackingNumber);
    }
    expect(numbers).toEqual([formatTrackingNumber(1), formatTrackingNumber(2)]);
    const reserved = (await readDomainStream<IdEvent>(harness.store, sequenceStreamName('tracking'))).events;
    expect(reserved.map((event) => event.data)).toEqual([{ sequence: 'tracking', first: 1, last: 20 }]);
  });

  it('when orders are imported, takes their IDs from the sale and sale product sequences, each once', async () => {
    const first = await importSale(harness.deps, anOrder(), harness.context);
    const second = await importSale(harness.deps, anOrder(), harness.context);

    const reserved = async (sequence: 'sale' | 'saleProduct') =>
      (await readDomainStream<IdEvent>(harness.store, sequenceStreamName(sequence))).events.map((event) => event.data);
    const within = (ranges: { first: number; last: number }[]) => (id: number) => ranges.some((range) => range.first <= id && id <= range.last);
    const saleRanges = await reserved('sale');
    const productRanges = await reserved('saleProduct');
    expect([first.saleId, second.saleId].every(within(saleRanges))).toBe(true);
    expect([...first.saleProductIds, ...second.saleProductIds].every(within(productRanges))).toBe(true);
    expect(second.saleId).not.toBe(first.saleId);
    expect(new Set([...first.saleProductIds, ...second.saleProductIds]).size).toBe(4);
  });
});
