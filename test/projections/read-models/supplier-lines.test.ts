import { describe, expect, it } from 'vitest';
import type { SaleProduct } from '../../../src/events/sales/events.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import type { ReadStore } from '../../../src/projections/read-store/read-store.ts';
import { baseUrlInJson, listedLine } from '../../../src/projections/supplier-lines/listing.ts';
import { findSupplierLine, listOpenSupplierLines } from '../../../src/projections/supplier-lines/queries.ts';
import { supplierLinesProjection } from '../../../src/projections/supplier-lines/supplier-lines-projection.ts';
import { eventLog } from './event-log.ts';
import { project } from './project.ts';
import { address, fridge, saleImported, sofa } from './sale-fixtures.ts';
import { buildScenario, timezone } from './scenario.ts';

const projections = [supplierLinesProjection({ timezone })];

describe('supplier lines read model', () => {
  it('when a sale has drop-shipped products, each has a line that follows its product', async () => {
    const store = await openTestReadStore();
    await project(store, projections, buildScenario().events);

    const common = {
      saleId: 101,
      incrementId: '100000101',
      incrementSort: '00000000000100000101',
      orderDate: '2025-03-10',
      orderedAt: '2025-03-09T23:30:00Z',
      shippingAddress: address('2 rue des Écoles'),
      customerName: 'Marie Curie',
      refusal: null,
      // Closed: no longer listed.
      listingHead: null,
      listingTail: null,
      _position: expect.any(Number),
    };
    expect(await findSupplierLine(store, '100000101_1001')).toEqual({
      ...common,
      _id: '100000101_1001',
      supplier: 'supplier-a',
      saleProductId: 1001,
      sku: 'SOFA-3P',
      name: 'Canapé 3 places',
      quantity: 1,
      price: 400,
      carrier: 'colissimo',
      state: 'shipped',
      open: false,
      acknowledgedAt: '2025-03-10T09:00:00+01:00',
      preparedAt: '2025-03-11T15:00:00+01:00',
      cancelledAt: null,
      trackingNumber: '6A123',
      labelPath: 'labels/100000101_1001.pdf',
    });
    expect(await findSupplierLine(store, '100000101_1002')).toEqual({
      ...common,
      _id: '100000101_1002',
      supplier: 'supplier-b',
      saleProductId: 1002,
      sku: 'FRIDGE-A',
      name: 'Réfrigérateur',
      quantity: 2,
      price: null,
      carrier: 'dpd',
      state: 'cancelled',
      open: false,
      acknowledgedAt: null,
      preparedAt: null,
      cancelledAt: '2025-03-12T10:00:00+01:00',
      trackingNumber: 'MC0000000000422',
      labelPath: 'labels/supplier-b/100000101_1002.pdf',
    });
  });

  it('when a product ships from own stock, it has no supplier line', async () => {
    const store = await openTestReadStore();
    await project(store, projections, buildScenario().events);

    expect(await findSupplierLine(store, '100000101_1003')).toBeNull();
    expect(await store.collection('supplier_lines').countDocuments({})).toBe(2);
  });

  it('when a line is acknowledged, it stays open until shipped', async () => {
    const store = await openTestReadStore();
    const log = eventLog();
    saleImported(log, { saleId: 1, incrementId: '1', orderedAt: '2025-03-10T10:00:00+01:00', products: [sofa] });
    log.record('sale-1', {
      type: 'SaleProductAcknowledged',
      data: { saleId: 1, saleProductId: 1001, supplier: 'supplier-a', acknowledgedAt: '2025-03-10T11:00:00+01:00' },
    });
    await project(store, projections, log.events);

    const lines = await listOpenSupplierLines(store, { supplier: 'supplier-a' });
    expect(lines.map((line) => [line._id, line.state, line.open])).toEqual([['1_1001', 'acknowledged', true]]);
  });

  it('while a line is open, it carries its listing as get-sales lists it, in the documented order, with the carrier of its label once there is one', async () => {
    const store = await openTestReadStore();
    const log = eventLog();
    saleImported(log, { saleId: 1, incrementId: '1', orderedAt: '2025-03-10T10:00:00+01:00', products: [sofa, { ...fridge, sku: 'FRIGO "A"' }] });
    log.record('sale-1', {
      type: 'ShippingLabelCreated',
      data: {
        saleId: 1,
        saleProductId: 1001,
        supplier: 'supplier-a',
        trackingNumber: '6A1',
        labelPath: 'labels/supplier-a/1_1001.pdf',
        carrier: 'Kuehne',
        createdAt: '2025-03-10T12:00:00+01:00',
      },
    });
    await project(store, projections, log.events);

    const listed = async (id: string) => {
      const line = (await findSupplierLine(store, id))!;
      return listedLine({ listingHead: line.listingHead!, listingTail: line.listingTail! }, baseUrlInJson('https://shop.example/sav'));
    };
    expect(await listed('1_1001')).toBe(
      '{"service_order_id":"1_1001","sku":"SOFA-3P","quantity":1,"price":400,"link_to_label":"https://shop.example/sav/api/files/labels/supplier-a/1_1001.pdf","order_date":"2025-03-10","carrier":"Kuehne"}',
    );
    expect(JSON.parse(await listed('1_1002'))).toEqual({
      service_order_id: '1_1002',
      sku: 'FRIGO "A"',
      quantity: 2,
      price: null,
      link_to_label: 'https://shop.example/sav/api/files/labels/supplier-b/1_1002.pdf',
      order_date: '2025-03-10',
      carrier: 'dpd',
    });
    // The link's signature goes after its path, whatever the tail holds after it.
    const line = (await findSupplierLine(store, '1_1002'))!;
    const signed = listedLine(
      { listingHead: line.listingHead!, listingTail: line.listingTail! },
      baseUrlInJson('https://shop.example/sav'),
      '?expires=1&signature=s',
    );
    expect(JSON.parse(signed)).toMatchObject({
      link_to_label: 'https://shop.example/sav/api/files/labels/supplier-b/1_1002.pdf?expires=1&signature=s',
      sku: 'FRIGO "A"',
    });
  });
});

describe('listing the open lines of a supplier', () => {
  const line = (saleProductId: number, supplier: SaleProduct['supplier'] = 'supplier-a'): SaleProduct => ({ ...sofa, saleProductId, supplier });

  /**
   * Lines of supplier-a by order date, then increment ID as a number, then product:
   *   2025-03-01: 99_5, 100_3, 100_4 | 2025-03-02: 98_6 | 2025-03-03: 7_8 (shipped), 7_9
   * plus a supplier-b line on 2025-03-01.
   */
  const given = async (): Promise<ReadStore> => {
    const store = await openTestReadStore();
    const log = eventLog();
    saleImported(log, { saleId: 1, incrementId: '100', orderedAt: '2025-03-01T10:00:00+01:00', products: [line(4), line(3), { ...fridge, saleProductId: 2 }] });
    saleImported(log, { saleId: 2, incrementId: '99', orderedAt: '2025-03-01T11:00:00+01:00', products: [line(5)] });
    saleImported(log, { saleId: 3, incrementId: '98', orderedAt: '2025-03-02T10:00:00+01:00', products: [line(6)] });
    saleImported(log, { saleId: 4, incrementId: '7', orderedAt: '2025-03-03T10:00:00+01:00', products: [line(8), line(9)] });
    log.record('sale-7', {
      type: 'SaleProductShipped',
      data: { saleId: 4, saleProductId: 8, supplier: 'supplier-a', preparedAt: '2025-03-04T10:00:00+01:00', logUser: 'cron' },
    });
    await project(store, projections, log.events);
    return store;
  };
  const ids = async (store: ReadStore, query: Omit<Parameters<typeof listOpenSupplierLines>[1], 'supplier'>) =>
    (await listOpenSupplierLines(store, { supplier: 'supplier-a', ...query })).map((found) => found._id);

  it('when no filter is given, every open line comes by date, increment ID as a number, then product', async () => {
    expect(await ids(await given(), {})).toEqual(['99_5', '100_3', '100_4', '98_6', '7_9']);
  });

  it('when dates are given, both bounds are inclusive', async () => {
    const store = await given();
    expect(await ids(store, { dateFrom: '2025-03-02' })).toEqual(['98_6', '7_9']);
    expect(await ids(store, { dateTo: '2025-03-02' })).toEqual(['99_5', '100_3', '100_4', '98_6']);
    expect(await ids(store, { dateFrom: '2025-03-02', dateTo: '2025-03-02' })).toEqual(['98_6']);
  });

  it('when an order number is given, only its lines come', async () => {
    expect(await ids(await given(), { orderNumber: '100' })).toEqual(['100_3', '100_4']);
  });

  it('when a cursor is given, only the lines strictly after it come', async () => {
    const store = await given();
    expect(await ids(store, { afterCursor: '99_5' })).toEqual(['100_3', '100_4', '98_6', '7_9']);
    expect(await ids(store, { afterCursor: '100_3' })).toEqual(['100_4', '98_6', '7_9']);
    expect(await ids(store, { afterCursor: '100_4' })).toEqual(['98_6', '7_9']);
  });

  it('when a cursor and dates are given, the lines come after the cursor and within the dates', async () => {
    const store = await given();
    expect(await ids(store, { afterCursor: '100_3', dateFrom: '2025-02-28' })).toEqual(['100_4', '98_6', '7_9']);
    expect(await ids(store, { afterCursor: '100_3', dateFrom: '2025-03-01' })).toEqual(['100_4', '98_6', '7_9']);
    expect(await ids(store, { afterCursor: '100_3', dateFrom: '2025-03-03' })).toEqual(['7_9']);
    expect(await ids(store, { afterCursor: '100_3', dateTo: '2025-03-02' })).toEqual(['100_4', '98_6']);
    expect(await ids(store, { afterCursor: '98_6', dateFrom: '2025-03-01', dateTo: '2025-03-02' })).toEqual([]);
  });

  it('when the cursor line has shipped since, the lines after it still come', async () => {
    expect(await ids(await given(), { afterCursor: '7_8' })).toEqual(['7_9']);
  });

  it('when the cursor names no line of the supplier, it filters nothing', async () => {
    const store = await given();
    expect(await ids(store, { afterCursor: '100_2' })).toEqual(['99_5', '100_3', '100_4', '98_6', '7_9']);
    expect(await ids(store, { afterCursor: '1_1' })).toEqual(['99_5', '100_3', '100_4', '98_6', '7_9']);
  });

  it('when skip and limit are given, they page the listing', async () => {
    const store = await given();
    expect(await ids(store, { skip: 1, limit: 2 })).toEqual(['100_3', '100_4']);
    expect(await ids(store, { afterCursor: '100_3', limit: 1 })).toEqual(['100_4']);
  });

  it('when another supplier lists, it sees only its own lines', async () => {
    const lines = await listOpenSupplierLines(await given(), { supplier: 'supplier-b' });
    expect(lines.map((found) => found._id)).toEqual(['100_2']);
  });
});
