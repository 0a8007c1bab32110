import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RoutedReadStore } from '../../../src/projections/engine/generations.ts';
import type { Projection } from '../../../src/projections/projection.ts';
import { openSqliteReadStore } from '../../../src/projections/read-store/sqlite-read-store.ts';
import { savsProjection } from '../../../src/projections/after-sales/savs-projection.ts';
import { salesProjection } from '../../../src/projections/sales/sales-projection.ts';
import { verifyReadModels } from '../../../src/projections/verify.ts';
import { writeSaleHistory } from '../../graphql/sale-log/sale-history.ts';
import { append, engineOn, holidayDeclared, holidayRemoved, holidaysProjection, openStores, type HolidayDay, type Stores } from './engine-fixtures.ts';

describe('verifying read models against a replay of the log', () => {
  let stores: Stores;
  let projections: Projection[];
  let head: number;
  let live: RoutedReadStore;

  beforeEach(async () => {
    stores = await openStores();
    projections = [salesProjection({ timezone: 'Europe/Paris' }), savsProjection, holidaysProjection().projection];
    await writeSaleHistory(stores.eventStore, { saleId: 1, incrementId: '100000001', savId: 7 });
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01'), holidayDeclared('2025-05-08')]);
    await writeSaleHistory(stores.eventStore, { saleId: 2, incrementId: '100000002', savId: 8 });
    head = await append(stores.eventStore, 'holidays-calendar', [holidayRemoved('2025-05-08')]);
    // The read models as the live path builds them: the engine catching up from nothing.
    const { engine, routes } = engineOn(stores, projections);
    await engine.start();
    await engine.stop();
    live = routes;
  });

  afterEach(async () => {
    await stores.close();
  });

  const verify = (options: { maxDifferences?: number; liveReached?: () => Promise<void> } = {}) =>
    verifyReadModels({ eventStore: stores.eventStore, live, projections, scratch: openSqliteReadStore({ file: ':memory:' }), ...options });

  it('when the live read models match the log, verify reports ok', async () => {
    expect(await verify()).toEqual({ ok: true, position: head, differenceCount: 0, differences: [] });
  });

  it('when an event is appended and applied live while verify runs, the replay catches up and the two are compared at the same point', async () => {
    let serviceAtWork = true;
    const report = await verify({
      liveReached: async () => {
        if (!serviceAtWork) return;
        serviceAtWork = false;
        // After the replay has read the log: a holiday declared again, and applied by the live projections.
        head = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-08')]);
        const { engine } = engineOn(stores, projections);
        await engine.start();
        await engine.stop();
      },
    });

    expect(report).toEqual({ ok: true, position: head, differenceCount: 0, differences: [] });
    expect(await live.collection<HolidayDay>('holidays_days').findOne({ _id: '2025-05-08' })).toMatchObject({ declared: true });
  });

  it('when the service changes documents during every comparison, those found different are compared again once the replay has caught up, and verify reports ok', async () => {
    let rounds = 0;
    const report = await verify({
      liveReached: async () => {
        // At each round, after the replay has read the log: another holiday declared and applied live,
        // as a long comparison of a large store always meets some work of the service.
        rounds += 1;
        await append(stores.eventStore, 'holidays-calendar', [holidayDeclared(`2025-06-0${rounds}`)]);
        const { engine } = engineOn(stores, projections);
        await engine.start();
        await engine.stop();
      },
    });

    expect(report).toMatchObject({ ok: true, differenceCount: 0, differences: [] });
    // The first round's comparison met one holiday the replay had not read: it alone was compared again, in the second.
    expect(rounds).toBe(2);
  });

  it('when live documents were changed, removed or added behind the projections, verify lists each difference', async () => {
    await live.collection<HolidayDay>('holidays_days').updateOne({ _id: '2025-05-01' }, { $set: { declared: false } });
    const [firstSale] = await live
      .collection('sales')
      .find({}, { sort: { _id: 1 }, limit: 1 })
      .toArray();
    await live.collection('sales').deleteOne({ _id: firstSale?._id });
    await live.collection<HolidayDay>('holidays_days').insertOne({ _id: '1999-01-01', declared: true, changes: 1, _position: 1 });

    const report = await verify();

    expect(report.ok).toBe(false);
    expect(report.differenceCount).toBe(3);
    expect(report.differences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          collection: 'holidays_days',
          _id: '2025-05-01',
          kind: 'different',
          live: expect.objectContaining({ declared: false }),
          rebuilt: expect.objectContaining({ declared: true }),
        }),
        expect.objectContaining({ collection: 'sales', _id: firstSale?._id, kind: 'missing', rebuilt: firstSale }),
        expect.objectContaining({ collection: 'holidays_days', _id: '1999-01-01', kind: 'extra' }),
      ]),
    );
  });

  it('when there are more differences than listed, verify counts them all', async () => {
    let removed = 0;
    for (const collection of ['sales', 'savs', 'holidays_days']) {
      removed += (await live.collection(collection).find({}).toArray()).length;
      await live.collection(collection).deleteMany({});
    }

    const report = await verify({ maxDifferences: 5 });

    expect(removed).toBeGreaterThan(5);
    expect(report.differences).toHaveLength(5);
    expect(report.differenceCount).toBe(removed);
  });
});
