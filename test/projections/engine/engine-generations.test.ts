import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../../src/events/registry.ts';
import { checkpointsCollection } from '../../../src/projections/checkpoints.ts';
import type { ProjectionEngine } from '../../../src/projections/engine/engine.ts';
import { generationsCollection } from '../../../src/projections/engine/generations.ts';
import type { DocumentWrites, ReadStore } from '../../../src/projections/read-store/read-store.ts';
import {
  append,
  checkpointOf,
  engineOn,
  eventually,
  holidayDeclared,
  holidayRemoved,
  holidaysProjection,
  openStores,
  type HolidayDay,
  type Stores,
  watch,
} from './engine-fixtures.ts';

/** A gate a projection waits at on one event, until opened. */
const gate = () => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let reached = false;
  return {
    hold: (when: (event: StoredEvent) => boolean) => (event: StoredEvent) => {
      if (!when(event)) return undefined;
      reached = true;
      return opened;
    },
    open: () => open(),
    reached: () => reached,
  };
};

describe('projection engine: generations (blue/green rebuilds)', () => {
  let stores: Stores;
  const engines: ProjectionEngine[] = [];

  beforeEach(async () => {
    stores = await openStores();
  });

  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
    await stores.close();
  });

  const labels = async (routes: ReturnType<typeof engineOn>['routes']) =>
    (
      await routes
        .collection<HolidayDay & { label?: string }>('holidays_days')
        .find({}, { sort: { _id: 1 } })
        .toArray()
    ).map((day) => [day._id, day.label]);

  it('when a projection comes in a new version, the old generation keeps answering while the new one is built, then the new one answers and the old one goes', async () => {
    const first = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01')]);
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-08')]);
    const v1 = engineOn(stores, [holidaysProjection('holidays', { label: 'v1' }).projection]);
    await v1.engine.start();
    await v1.engine.stop();

    const build = gate();
    const v2Projection = holidaysProjection('holidays', { version: 2, label: 'v2', blockOn: build.hold((event) => event.position === first) });
    const v2 = engineOn(stores, [v2Projection.projection], { retiredGenerationGraceMs: 0 });
    engines.push(v2.engine);
    await v2.engine.start();

    // Ready at once: the old version serves while the new one is built.
    expect(v2.engine.isReady()).toBe(true);
    await eventually(() => build.reached());
    expect(await labels(v2.routes)).toEqual([
      ['2025-05-01', 'v1'],
      ['2025-05-08', 'v1'],
    ]);
    expect(v2.engine.status()[0]).toMatchObject({ version: 2, generation: 1, rebuilding: { generation: 2, version: 2 } });

    build.open();
    await eventually(() => v2.engine.status()[0]?.generation === 2);
    expect(await labels(v2.routes)).toEqual([
      ['2025-05-01', 'v2'],
      ['2025-05-08', 'v2'],
    ]);
    expect(v2.engine.status()[0]).not.toHaveProperty('rebuilding');
    await eventually(async () => !(await stores.readStore.listCollectionNames()).includes('holidays_days_g1'));
    expect(await checkpointOf(stores.readStore, 'holidays', 1)).toBeUndefined();

    // From then on the new generation is the live one: kept up to date, and read after a restart.
    const later = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-07-14')]);
    expect(await v2.engine.waitFor(later, ['HolidayDeclared'])).toBe(true);
    expect((await labels(v2.routes)).at(-1)).toEqual(['2025-07-14', 'v2']);
  });

  it('when another instance starts during the grace period of a generation just retired here, it leaves that generation to this instance', async () => {
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01')]);
    const v1 = engineOn(stores, [holidaysProjection('holidays', { label: 'v1' }).projection]);
    await v1.engine.start();
    await v1.engine.stop();
    const v2Projection = holidaysProjection('holidays', { version: 2, label: 'v2' }).projection;
    const running = engineOn(stores, [v2Projection], { retiredGenerationGraceMs: 60_000 });
    engines.push(running.engine);
    await running.engine.start();
    await eventually(() => running.engine.status()[0]?.generation === 2);

    // A command's engine beside it (the CLI): the projection's lease is the running instance's.
    const beside = engineOn(stores, [v2Projection], { retiredGenerationGraceMs: 0 });
    engines.push(beside.engine);
    await beside.engine.start();

    expect(beside.engine.status()[0]).toMatchObject({ elsewhere: true });
    expect(await stores.readStore.listCollectionNames()).toContain('holidays_days_g1');
    expect(await checkpointOf(stores.readStore, 'holidays', 1)).toBeDefined();
  });

  it('when the data holds a read model the service keeps no more, starting drops its collections, checkpoints and registry entry, and nothing else', async () => {
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01')]);
    // The sale log as the service kept it before it was read from the sales' streams: generation 1 live, 2 half built.
    const base = stores.readStore;
    await base
      .collection(generationsCollection)
      .insertOne({ _id: 'sale-log', live: { generation: 1, version: 2 }, next: { generation: 2, version: 2 }, last: 2, rebuildRequestedAt: null } as never);
    for (const name of ['sale_log_g1', 'sale_log_savs_g1', 'sale_log_products_g1', 'sale_log_g2'])
      await base.collection(name).insertOne({ _id: `${name}-entry` } as never);
    for (const _id of ['sale-log_g1', 'sale-log_g2']) await base.collection(checkpointsCollection).insertOne({ _id, position: 1 } as never);

    const { engine, routes } = engineOn(stores, [holidaysProjection().projection]);
    engines.push(engine);
    await engine.start();

    const names = await base.listCollectionNames();
    expect(names.filter((name) => name.startsWith('sale_log'))).toEqual([]);
    expect(await base.collection(checkpointsCollection).countDocuments({ _id: { $in: ['sale-log_g1', 'sale-log_g2'] } } as never)).toBe(0);
    expect(await base.collection(generationsCollection).findOne({ _id: 'sale-log' } as never)).toBeNull();
    expect((await labels(routes)).map(([date]) => date)).toEqual(['2025-05-01']);
  });

  it('when a rebuild is requested, the live generation goes on taking the new events while the next one is built, then the next one takes over with all of them', async () => {
    const first = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01')]);
    const build = gate();
    let building = false;
    const holidays = holidaysProjection('holidays', { blockOn: build.hold((event) => building && event.position === first) });
    const { engine, routes } = engineOn(stores, [holidays.projection], { retiredGenerationGraceMs: 0 });
    engines.push(engine);
    await engine.start();

    building = true;
    await engine.requestRebuild();
    await eventually(() => build.reached());
    const during = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-08')]);
    // Read-your-writes holds during the rebuild: the live generation is kept up to date.
    expect(await engine.waitFor(during, ['HolidayDeclared'])).toBe(true);
    expect((await labels(routes)).map(([id]) => id)).toEqual(['2025-05-01', '2025-05-08']);
    expect(engine.status()[0]).toMatchObject({ generation: 1, rebuilding: { generation: 2 } });

    build.open();
    await eventually(() => engine.status()[0]?.generation === 2);
    expect(
      await routes
        .collection<HolidayDay>('holidays_days')
        .find({}, { sort: { _id: 1 } })
        .toArray(),
    ).toEqual([
      { _id: '2025-05-01', declared: true, changes: 1, _position: first },
      { _id: '2025-05-08', declared: true, changes: 1, _position: during },
    ]);
    await eventually(async () => !(await stores.readStore.listCollectionNames()).includes('holidays_days_g1'));
  });

  it('when every read model is rebuilt at once, one reader of the log builds them all, and each gets every event', async () => {
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01'), holidayDeclared('2025-05-08'), holidayRemoved('2025-05-08')]);
    const readers: unknown[] = [];
    const eventStore = watch(stores.eventStore, {
      subscribeToAll: (options) => {
        readers.push(options);
        return stores.eventStore.subscribeToAll(options);
      },
    });
    const projections = [holidaysProjection('holidays'), holidaysProjection('closures'), holidaysProjection('bank-days')];
    const { engine } = engineOn(
      { ...stores, eventStore },
      projections.map(({ projection }) => projection),
      { retiredGenerationGraceMs: 0 },
    );
    engines.push(engine);
    await engine.start();
    const atStart = readers.length;

    await engine.requestRebuild();
    await eventually(() => engine.status().every((status) => status.generation === 2));

    expect(readers.length - atStart).toBe(1);
    for (const { applied } of projections) expect(applied).toHaveLength(6);
    for (const { collection } of projections) expect(await stores.readStore.collection(`${collection}_g2`).countDocuments()).toBe(2);
  });

  it('when a rebuild writes a large batch, the new generation is written in pieces of 1,000 documents with its checkpoint in the last; the live one in one write', async () => {
    const days = Array.from({ length: 2_500 }, (_, i) => new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10));
    await append(stores.eventStore, 'holidays-calendar', days.map(holidayDeclared));
    const writes: { collections: string[]; documents: number; checkpoint: boolean }[] = [];
    const readStore = new Proxy(stores.readStore, {
      get: (target, property: keyof ReadStore) =>
        property === 'writeDocuments'
          ? (documents: DocumentWrites[], last?: DocumentWrites) => {
              writes.push({
                collections: [...new Set(documents.map(({ collection }) => collection))],
                documents: documents.reduce((sum, { put, insert = [], remove = [] }) => sum + put.length + insert.length + remove.length, 0),
                checkpoint: last !== undefined,
              });
              return target.writeDocuments(documents, last);
            }
          : (target[property] as (...args: unknown[]) => unknown).bind(target),
    });
    const holidays = holidaysProjection('holidays');
    const { engine, routes } = engineOn({ ...stores, readStore }, [holidays.projection], { retiredGenerationGraceMs: 0, maxBatch: 5_000 });
    engines.push(engine);
    await engine.start();
    // The first build is the live generation (nothing answered before it): one write.
    expect(writes).toEqual([{ collections: ['holidays_days_g1'], documents: 2_500, checkpoint: true }]);

    writes.length = 0;
    await engine.requestRebuild();
    await eventually(() => engine.status()[0]?.generation === 2);

    expect(writes).toEqual([
      { collections: ['holidays_days_g2'], documents: 1_000, checkpoint: false },
      { collections: ['holidays_days_g2'], documents: 1_000, checkpoint: false },
      { collections: ['holidays_days_g2'], documents: 500, checkpoint: true },
    ]);
    expect(await routes.collection('holidays_days').countDocuments()).toBe(2_500);
  });

  it('when events keep coming while a rebuild catches up and is handed over to the main reader, the new generation holds each of them exactly once', async () => {
    const dates = ['2025-05-01', '2025-05-08', '2025-07-14'];
    const expected = new Map<string, number>();
    const change = (n: number) => {
      const date = dates[n % dates.length]!;
      expected.set(date, (expected.get(date) ?? 0) + 1);
      return append(stores.eventStore, 'holidays-calendar', [n % 2 === 0 ? holidayDeclared(date) : holidayRemoved(date)]);
    };
    for (let n = 0; n < 200; n++) await change(n);
    // Each event takes a moment: the builder, the main reader and the appends interleave.
    const holidays = holidaysProjection('holidays', { blockOn: () => new Promise<void>((resolve) => setTimeout(resolve, Math.random() < 0.5 ? 0 : 1)) });
    const { engine, routes } = engineOn(stores, [holidays.projection], { retiredGenerationGraceMs: 0, maxBatch: 16 });
    engines.push(engine);
    await engine.start();

    await engine.requestRebuild();
    let last = 0;
    for (let n = 200; n < 400; n += 4) last = Math.max(...(await Promise.all([0, 1, 2, 3].map((k) => change(n + k)))));
    await eventually(() => engine.status()[0]?.generation === 2);
    expect(await engine.waitFor(last, ['HolidayDeclared', 'HolidayRemoved'])).toBe(true);

    const days = await routes
      .collection<HolidayDay>('holidays_days')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    expect(days.map((day) => [day._id, day.changes, day._position])).toEqual(dates.map((date) => [date, expected.get(date), expect.any(Number)]));
    expect(Math.max(...days.map((day) => day._position))).toBe(last);
  });

  it('when the instance stops in the middle of a build, the next start resumes the build from its checkpoint', async () => {
    const positions: number[] = [];
    for (let day = 1; day <= 5; day++) positions.push(await append(stores.eventStore, 'holidays-calendar', [holidayDeclared(`2025-06-0${day}`)]));
    const v1 = engineOn(stores, [holidaysProjection('holidays').projection]);
    await v1.engine.start();
    await v1.engine.stop();
    // Version 2 fails on the fourth event: its build stops there, three events in.
    const failing = holidaysProjection('holidays', { version: 2, failOn: (event) => event.position === positions[3] });
    const interrupted = engineOn(stores, [failing.projection]);
    await interrupted.engine.start();
    await eventually(() => failing.applied.length === 3);
    await interrupted.engine.stop();

    const resumed = holidaysProjection('holidays', { version: 2 });
    const again = engineOn(stores, [resumed.projection], { retiredGenerationGraceMs: 0 });
    engines.push(again.engine);
    await again.engine.start();

    await eventually(() => again.engine.status()[0]?.generation === 2);
    expect(failing.applied).toEqual(positions.slice(0, 3));
    expect(resumed.applied).toEqual(positions.slice(3));
    expect(await again.routes.collection('holidays_days').countDocuments()).toBe(5);
  });
});
