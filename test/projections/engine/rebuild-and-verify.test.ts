import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProjectionEngine } from '../../../src/projections/engine.ts';
import type { Projection } from '../../../src/projections/projection.ts';
import { createMemoryReadStore } from '../../../src/projections/read-store/memory-read-store.ts';
import type { ReadStore } from '../../../src/projections/read-store/read-store.ts';
import { rebuildReadModels } from '../../../src/projections/rebuild.ts';
import { saleLogProjection } from '../../../src/projections/sale-log/sale-log-projection.ts';
import { verifyReadModels } from '../../../src/projections/verify.ts';
import { writeSaleHistory } from '../sale-log/sale-history.ts';
import { append, checkpointOf, holidayDeclared, holidayRemoved, holidaysProjection, openStores, recordingLog, type HolidayDay, type Stores } from './engine-fixtures.ts';

const collectionsOf = async (store: ReadStore, projections: readonly Projection[]) =>
  Object.fromEntries(
    await Promise.all(
      projections
        .flatMap((projection) => projection.collections)
        .map(async (name) => [name, await store.collection(name).find({}, { sort: { _id: 1 } }).toArray()] as const),
    ),
  );

describe('rebuilding and verifying read models', () => {
  let stores: Stores;
  let projections: Projection[];
  let head: number;

  beforeEach(async () => {
    stores = await openStores();
    projections = [saleLogProjection, holidaysProjection().projection];
    await writeSaleHistory(stores.eventStore, { saleId: 1, incrementId: '100000001', savId: 7 });
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01'), holidayDeclared('2025-05-08')]);
    await writeSaleHistory(stores.eventStore, { saleId: 2, incrementId: '100000002', savId: 8 });
    head = await append(stores.eventStore, 'holidays-calendar', [holidayRemoved('2025-05-08')]);
  });

  afterEach(async () => {
    await stores.close();
  });

  /** The read models as the live path builds them: the engine catching up from nothing. */
  const buildLive = async (): Promise<void> => {
    const engine = createProjectionEngine({ ...stores, projections, log: recordingLog().log });
    await engine.start();
    await engine.stop();
  };

  it('when the log is replayed by a rebuild, the read models equal those built by the engine, and the checkpoints sit at the head', async () => {
    await buildLive();
    const rebuilt = createMemoryReadStore();

    const report = await rebuildReadModels({ eventStore: stores.eventStore, readStore: rebuilt, projections, pageSize: 7 });

    expect(await collectionsOf(rebuilt, projections)).toEqual(await collectionsOf(stores.readStore, projections));
    expect(report).toEqual({ position: head, counts: { 'sale-log': 30, holidays: 3 } });
    expect(await checkpointOf(rebuilt, 'sale-log')).toBe(head);
  });

  it('when the read models already hold documents, a rebuild replaces them with the log\'s', async () => {
    await buildLive();
    const expected = await collectionsOf(stores.readStore, projections);
    await stores.readStore.collection<HolidayDay>('holidays_days').insertOne({ _id: '1999-01-01', declared: true, changes: 9, _position: 1 });
    await stores.readStore.collection('sale_log').deleteMany({ saleId: 2 });

    await rebuildReadModels({ eventStore: stores.eventStore, readStore: stores.readStore, projections });

    expect(await collectionsOf(stores.readStore, projections)).toEqual(expected);
  });

  it('when the live read models match the log, verify reports ok', async () => {
    await buildLive();

    const report = await verifyReadModels({ eventStore: stores.eventStore, live: stores.readStore, projections });

    expect(report).toEqual({ ok: true, position: head, differenceCount: 0, differences: [] });
  });

  it('when live documents were changed, removed or added behind the projections, verify lists each difference', async () => {
    await buildLive();
    await stores.readStore.collection<HolidayDay>('holidays_days').updateOne({ _id: '2025-05-01' }, { $set: { declared: false } });
    const [firstEntry] = await stores.readStore.collection('sale_log').find({}, { sort: { position: 1 }, limit: 1 }).toArray();
    await stores.readStore.collection('sale_log').deleteOne({ _id: firstEntry?._id });
    await stores.readStore.collection<HolidayDay>('holidays_days').insertOne({ _id: '1999-01-01', declared: true, changes: 1, _position: 1 });

    const report = await verifyReadModels({ eventStore: stores.eventStore, live: stores.readStore, projections });

    expect(report.ok).toBe(false);
    expect(report.differenceCount).toBe(3);
    expect(report.differences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ collection: 'holidays_days', _id: '2025-05-01', kind: 'different', live: expect.objectContaining({ declared: false }), rebuilt: expect.objectContaining({ declared: true }) }),
        expect.objectContaining({ collection: 'sale_log', _id: firstEntry?._id, kind: 'missing', rebuilt: firstEntry }),
        expect.objectContaining({ collection: 'holidays_days', _id: '1999-01-01', kind: 'extra' }),
      ]),
    );
  });

  it('when there are more differences than listed, verify counts them all', async () => {
    await buildLive();
    await stores.readStore.collection('sale_log').deleteMany({});

    const report = await verifyReadModels({ eventStore: stores.eventStore, live: stores.readStore, projections, maxDifferences: 5 });

    expect(report.differences).toHaveLength(5);
    expect(report.differenceCount).toBe(30);
  });
});
