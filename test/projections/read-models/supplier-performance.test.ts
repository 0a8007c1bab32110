import { describe, expect, it } from 'vitest';
import type { SaleProduct } from '../../../src/events/sales/events.ts';
import type { ReadStore } from '../../../src/projections/read-store/read-store.ts';
import { delayStats, percentile } from '../../../src/projections/supplier-performance/percentiles.ts';
import { supplierPerformance } from '../../../src/projections/supplier-performance/queries.ts';
import { supplierPerformanceProjection } from '../../../src/projections/supplier-performance/supplier-performance-projection.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { eventLog, type EventLog } from './event-log.ts';
import { deliver, project, readModels } from './project.ts';
import { cushion, fridge, saleImported, sofa } from './sale-fixtures.ts';
import { timezone } from './scenario.ts';

const projections = [supplierPerformanceProjection({ timezone })];

const line = (saleProductId: number, supplier: SaleProduct['supplier'] = 'supplier-a'): SaleProduct => ({ ...sofa, saleProductId, supplier });

const acknowledged = (log: EventLog, saleId: number, saleProductId: number, acknowledgedAt: string, supplier: 'supplier-a' | 'supplier-b' = 'supplier-a') =>
  log.record(`sale-${saleId}`, { type: 'SaleProductAcknowledged', data: { saleId, saleProductId, supplier, acknowledgedAt } });
const shipped = (log: EventLog, saleId: number, saleProductId: number, preparedAt: string) =>
  log.record(`sale-${saleId}`, { type: 'SaleProductShipped', data: { saleId, saleProductId, supplier: 'supplier-a', preparedAt, logUser: 'cron' } });
const cancelled = (log: EventLog, saleId: number, saleProductId: number, cancelledAt: string) =>
  log.record(`sale-${saleId}`, { type: 'SaleProductCancelled', data: { saleId, saleProductId, reason: 'rupture', cancelledAt } });

/**
 * Sale 1, ordered at 00:30 on 10 March in Paris (23:30 UTC the day before): a sofa of supplier-a, a
 * fridge of supplier-b, a cushion from own stock. Sale 2, ordered at 10:00 on 10 March: two lines of
 * supplier-a. Acknowledged 2 h, 1 h and 4 h after their orders on the 10th; the first sofa shipped
 * 24 h after its order (11th), the fridge cancelled on the 12th, the cushion shipped from stock.
 */
const history = () => {
  const log = eventLog();
  saleImported(log, { saleId: 1, incrementId: '1', orderedAt: '2025-03-09T23:30:00Z', products: [sofa, fridge, cushion] });
  saleImported(log, { saleId: 2, incrementId: '2', orderedAt: '2025-03-10T10:00:00+01:00', products: [line(2001), line(2002)] });
  acknowledged(log, 1, 1001, '2025-03-10T02:30:00+01:00');
  acknowledged(log, 2, 2001, '2025-03-10T11:00:00+01:00');
  acknowledged(log, 2, 2002, '2025-03-10T14:00:00+01:00');
  shipped(log, 1, 1001, '2025-03-11T00:30:00+01:00');
  cancelled(log, 1, 1002, '2025-03-12T10:00:00+01:00');
  log.record('sale-1', {
    type: 'SaleProductShipped',
    data: { saleId: 1, saleProductId: 1003, supplier: null, preparedAt: '2025-03-11T09:00:00+01:00', logUser: 'cron' },
  });
  return log;
};

const given = async (log: EventLog = history()): Promise<ReadStore> => {
  const store = await openTestReadStore();
  await project(store, projections, log.events);
  return store;
};

const noDelay = { samples: 0, median: null, p90: null };
const noRefusal = { out_of_stock: 0, discontinued: 0, cannot_deliver: 0, other: 0 };

describe('supplier performance read model', () => {
  it('when lines are received and handled, each supplier counts them on the local day each happened, with its open backlog at the end of each day', async () => {
    const store = await given();
    const days = await store
      .collection('supplier_performance_days')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    const counts = { received: 0, acknowledged: 0, shipped: 0, cancelled: 0, refused: 0, refusedFor: noRefusal };
    expect(days.map(({ _position, ...day }) => day)).toEqual([
      { _id: 'supplier-a:2025-03-10', supplier: 'supplier-a', date: '2025-03-10', ...counts, received: 3, acknowledged: 3, openUpTo: 3 },
      { _id: 'supplier-a:2025-03-11', supplier: 'supplier-a', date: '2025-03-11', ...counts, shipped: 1, openUpTo: 2 },
      { _id: 'supplier-b:2025-03-10', supplier: 'supplier-b', date: '2025-03-10', ...counts, received: 1, openUpTo: 1 },
      { _id: 'supplier-b:2025-03-12', supplier: 'supplier-b', date: '2025-03-12', ...counts, cancelled: 1, openUpTo: 0 },
    ]);
    const delays = await store
      .collection('supplier_performance_delays')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    expect(delays.map(({ _position, ...chunk }) => chunk)).toEqual([
      { _id: 'supplier-a:2025-03-10:ack:0', supplier: 'supplier-a', date: '2025-03-10', kind: 'ack', delays: [7200, 3600, 14400] },
      { _id: 'supplier-a:2025-03-11:ship:0', supplier: 'supplier-a', date: '2025-03-11', kind: 'ship', delays: [86400] },
    ]);
  });

  it('when the delays of a day span several chunks of the log, each chunk holds its own and the percentiles still use every sample', async () => {
    const log = eventLog();
    // Five lines ordered at 08:00 on 1 April, acknowledged 1 h, 2 h, ... 5 h later, at positions 6, 12,
    // 18, 24 and 30 (the test log's positions go by 3); chunks of 12 positions.
    for (let n = 1; n <= 5; n += 1) {
      saleImported(log, { saleId: n, incrementId: String(n), orderedAt: '2025-04-01T08:00:00+02:00', products: [line(100 + n)] });
      acknowledged(log, n, 100 + n, new Date(Date.parse('2025-04-01T08:00:00+02:00') + n * 3_600_000).toISOString());
    }
    const chunked = [supplierPerformanceProjection({ timezone, positionsPerDelayChunk: 12 })];
    const store = await openTestReadStore();
    await project(store, chunked, log.events);

    const chunks = await store
      .collection('supplier_performance_delays')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    expect(chunks.map((chunk) => [chunk._id, chunk.delays])).toEqual([
      ['supplier-a:2025-04-01:ack:0', [3600]],
      ['supplier-a:2025-04-01:ack:1', [7200, 10800]],
      ['supplier-a:2025-04-01:ack:2', [14400, 18000]],
    ]);
    const [a] = await supplierPerformance(store, { from: '2025-04-01', to: '2025-04-01', supplier: 'supplier-a' });
    expect(a).toMatchObject({ acknowledged: 5, ackDelay: { samples: 5, median: 3 * 3600, p90: 4.6 * 3600 } });

    // Delivered again, whole: no chunk takes a sample twice.
    const once = await readModels(store, chunked);
    await deliver(store, chunked, log.events);
    expect(await readModels(store, chunked)).toEqual(once);
  });

  it('when a batch is applied again after a crash that stored some of its documents only, each delay is recorded once', async () => {
    const log = eventLog();
    // Imports at positions 3, 6, 9, acknowledgements at 12, 15, 18; chunks of 6 positions: 2 and 3.
    for (let n = 1; n <= 3; n += 1) {
      saleImported(log, { saleId: n, incrementId: String(n), orderedAt: '2025-04-01T08:00:00+02:00', products: [line(100 + n)] });
    }
    for (let n = 1; n <= 3; n += 1) acknowledged(log, n, 100 + n, new Date(Date.parse('2025-04-01T08:00:00+02:00') + n * 3_600_000).toISOString());
    const chunked = [supplierPerformanceProjection({ timezone, positionsPerDelayChunk: 6 })];
    const complete = await openTestReadStore();
    await project(complete, chunked, log.events);

    // The day document and the last chunk were stored, the first chunk was not: then the batch is applied again.
    const crashed = await openTestReadStore();
    await project(crashed, chunked, log.events);
    await crashed.collection<{ _id: string }>('supplier_performance_delays').deleteOne({ _id: 'supplier-a:2025-04-01:ack:2' });
    await deliver(crashed, chunked, log.events.slice(3));

    expect(await readModels(crashed, chunked)).toEqual(await readModels(complete, chunked));
  });

  it('when a batch is applied again after a crash that stored a new day in the calendar but not its document, that day starts from the totals of the day before', async () => {
    const log = eventLog();
    saleImported(log, { saleId: 1, incrementId: '1', orderedAt: '2025-04-01T08:00:00+02:00', products: [line(101), line(102)] });
    acknowledged(log, 1, 101, '2025-04-03T09:00:00+02:00');
    const projections = [supplierPerformanceProjection({ timezone })];
    const complete = await openTestReadStore();
    await project(complete, projections, log.events);

    // The calendar listing the 3rd was stored, the 3rd's document was not: then the batch is applied again.
    const crashed = await openTestReadStore();
    await project(crashed, projections, log.events);
    await crashed.collection<{ _id: string }>('supplier_performance_days').deleteOne({ _id: 'supplier-a:2025-04-03' });
    await deliver(crashed, projections, log.events.slice(1));

    expect(await readModels(crashed, projections)).toEqual(await readModels(complete, projections));
    const third = await crashed.collection<{ _id: string; openUpTo: number }>('supplier_performance_days').findOne({ _id: 'supplier-a:2025-04-03' });
    expect(third?.openUpTo).toBe(2);
  });

  it('when a figure is dated before days already recorded (a replayed history), the backlog of every later day moves with it', async () => {
    const log = eventLog();
    saleImported(log, { saleId: 1, incrementId: '1', orderedAt: '2025-03-12T10:00:00+01:00', products: [sofa] });
    shipped(log, 1, 1001, '2025-03-14T10:00:00+01:00');
    // Imported later, ordered earlier: its line is open from the 10th on.
    saleImported(log, { saleId: 2, incrementId: '2', orderedAt: '2025-03-10T10:00:00+01:00', products: [line(2001)] });
    const store = await given(log);

    const days = await store
      .collection('supplier_performance_days')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    expect(days.map((day) => [day.date, day.openUpTo])).toEqual([
      ['2025-03-10', 1],
      ['2025-03-12', 2],
      ['2025-03-14', 1],
    ]);
    expect((await supplierPerformance(store, { from: '2025-03-11', to: '2025-03-13', supplier: 'supplier-a' }))[0]?.openBacklog).toBe(2);
    expect((await supplierPerformance(store, { from: '2025-03-01', to: '2025-03-09', supplier: 'supplier-a' }))[0]?.openBacklog).toBe(0);
  });

  it('when a period is asked, every supplier comes with its counts, its backlog at the end and its delay percentiles', async () => {
    const store = await given();
    expect(await supplierPerformance(store, { from: '2025-03-10', to: '2025-03-10' })).toEqual([
      {
        supplier: 'supplier-a',
        received: 3,
        acknowledged: 3,
        shipped: 0,
        cancelled: 0,
        refused: 0,
        refusedFor: noRefusal,
        openBacklog: 3,
        ackDelay: { samples: 3, median: 7200, p90: 12960 },
        shipDelay: noDelay,
      },
      {
        supplier: 'supplier-b',
        received: 1,
        acknowledged: 0,
        shipped: 0,
        cancelled: 0,
        refused: 0,
        refusedFor: noRefusal,
        openBacklog: 1,
        ackDelay: noDelay,
        shipDelay: noDelay,
      },
    ]);
    expect(await supplierPerformance(store, { from: '2025-03-10', to: '2025-03-12' })).toMatchObject([
      { supplier: 'supplier-a', received: 3, acknowledged: 3, shipped: 1, cancelled: 0, openBacklog: 2, shipDelay: { samples: 1, median: 86400, p90: 86400 } },
      { supplier: 'supplier-b', received: 1, cancelled: 1, openBacklog: 0 },
    ]);
  });

  it('when the period starts after the lines were received, the backlog still counts them until they ship or are cancelled', async () => {
    const store = await given();
    expect(await supplierPerformance(store, { from: '2025-03-11', to: '2025-03-11' })).toEqual([
      {
        supplier: 'supplier-a',
        received: 0,
        acknowledged: 0,
        shipped: 1,
        cancelled: 0,
        refused: 0,
        refusedFor: noRefusal,
        openBacklog: 2,
        ackDelay: noDelay,
        shipDelay: { samples: 1, median: 86400, p90: 86400 },
      },
      {
        supplier: 'supplier-b',
        received: 0,
        acknowledged: 0,
        shipped: 0,
        cancelled: 0,
        refused: 0,
        refusedFor: noRefusal,
        openBacklog: 1,
        ackDelay: noDelay,
        shipDelay: noDelay,
      },
    ]);
    expect(await supplierPerformance(store, { from: '2025-04-01', to: '2025-04-30', supplier: 'supplier-a' })).toEqual([
      {
        supplier: 'supplier-a',
        received: 0,
        acknowledged: 0,
        shipped: 0,
        cancelled: 0,
        refused: 0,
        refusedFor: noRefusal,
        openBacklog: 2,
        ackDelay: noDelay,
        shipDelay: noDelay,
      },
    ]);
  });

  it('when the delays of a period spread over several days, the median and the 90th percentile come from every sample', async () => {
    const log = eventLog();
    // Ten orders at 08:00 on 1 to 10 April, each acknowledged 1 h, 2 h, ... 10 h later.
    for (let n = 1; n <= 10; n += 1) {
      const day = String(n).padStart(2, '0');
      saleImported(log, { saleId: n, incrementId: String(n), orderedAt: `2025-04-${day}T08:00:00+02:00`, products: [line(100 + n)] });
      acknowledged(log, n, 100 + n, new Date(Date.parse(`2025-04-${day}T08:00:00+02:00`) + n * 3_600_000).toISOString());
    }
    const store = await given(log);
    const [a] = await supplierPerformance(store, { from: '2025-04-01', to: '2025-04-30', supplier: 'supplier-a' });
    expect(a?.ackDelay).toEqual({ samples: 10, median: 5.5 * 3600, p90: 9.1 * 3600 });
    const [firstDays] = await supplierPerformance(store, { from: '2025-04-01', to: '2025-04-03', supplier: 'supplier-a' });
    expect(firstDays?.ackDelay).toEqual({ samples: 3, median: 2 * 3600, p90: 2.8 * 3600 });
  });

  it('when the log is delivered again, whole or event by event, the documents are as after one delivery', async () => {
    const { events } = history();
    const once = await given();
    const twice = await given();
    await deliver(twice, projections, events);
    const doubled = await openTestReadStore();
    await project(
      doubled,
      projections,
      events.flatMap((event) => [event, event]),
    );

    const expected = await readModels(once, projections);
    expect(await readModels(twice, projections)).toEqual(expected);
    expect(await readModels(doubled, projections)).toEqual(expected);
  });
});

describe('delay percentiles', () => {
  it('when there is no sample, there is no median nor percentile', () => {
    expect(delayStats([])).toEqual({ samples: 0, median: null, p90: null });
  });

  it('when samples are given in any order, they interpolate between the closest ranks', () => {
    expect(delayStats([30, 10, 20])).toEqual({ samples: 3, median: 20, p90: 28 });
    expect(percentile([10, 20, 30, 40], 0.5)).toBe(25);
    expect(percentile([42], 0.9)).toBe(42);
  });
});
