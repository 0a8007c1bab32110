import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectionEngine } from '../../../src/projections/engine/engine.ts';
import type { SubscribeToAllOptions } from '../../../src/events/store/event-store.ts';
import type { DocumentWrites } from '../../../src/projections/read-store/read-store.ts';
import {
  append,
  cancellationsProjection,
  type Cancellation,
  checkpointOf,
  engineOn,
  eventually,
  holidayDeclared,
  holidayRemoved,
  holidaysProjection,
  openStores,
  recordingLog,
  type Stores,
  saleCancelled,
  watch,
} from './engine-fixtures.ts';

describe('projection engine: catch-up, resume and live events', () => {
  let stores: Stores;
  let engine: ProjectionEngine | undefined;

  beforeEach(async () => {
    stores = await openStores();
  });

  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await stores.close();
  });

  it('when nothing was built yet, start applies the whole log as generation 1 before it resolves, with its checkpoint', async () => {
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01'), holidayDeclared('2025-05-08')]);
    await append(stores.eventStore, 'sale-100000001', [saleCancelled(1)]);
    const last = await append(stores.eventStore, 'holidays-calendar', [holidayRemoved('2025-05-08')]);
    const holidays = holidaysProjection();
    const started = engineOn(stores, [holidays.projection]);
    engine = started.engine;

    await engine.start();

    expect(holidays.applied).toHaveLength(3);
    expect(
      await started.routes
        .collection(holidays.collection)
        .find({}, { sort: { _id: 1 } })
        .toArray(),
    ).toEqual([
      { _id: '2025-05-01', declared: true, changes: 1, _position: holidays.applied[0] },
      { _id: '2025-05-08', declared: false, changes: 2, _position: last },
    ]);
    expect(await stores.readStore.collection(`${holidays.collection}_g1`).countDocuments()).toBe(2);
    expect(await checkpointOf(stores.readStore, 'holidays')).toBe(last);
    expect(engine.isReady()).toBe(true);
    expect(engine.status()).toEqual([{ name: 'holidays', version: 1, generation: 1, position: last, caughtUp: true, running: true, lastError: null }]);
  });

  it('when the engine is restarted, it reads the log only after its checkpoint: the events before are not applied again', async () => {
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01')]);
    engine = engineOn(stores, [holidaysProjection().projection]).engine;
    await engine.start();
    await engine.stop();
    const checkpoint = await checkpointOf(stores.readStore, 'holidays');
    const added = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-11-11')]);

    const again = holidaysProjection();
    const subscriptions: SubscribeToAllOptions[] = [];
    const watched = watch(stores.eventStore, {
      subscribeToAll: (options) => {
        subscriptions.push(options ?? {});
        return stores.eventStore.subscribeToAll(options);
      },
    });
    engine = engineOn({ ...stores, eventStore: watched as Stores['eventStore'] }, [again.projection]).engine;
    await engine.start();

    expect(again.applied).toEqual([added]);
    expect(subscriptions).toEqual([expect.objectContaining({ fromPosition: checkpoint })]);
  });

  it('when several projections run, one subscription reads the log for all of them, in batches written together with the checkpoints', async () => {
    for (let day = 1; day <= 9; day++) {
      await append(stores.eventStore, 'holidays-calendar', [holidayDeclared(`2025-06-0${day}`)]);
      await append(stores.eventStore, `sale-10000000${day}`, [saleCancelled(day)]);
    }
    const holidays = holidaysProjection();
    const cancellations = cancellationsProjection();
    let subscriptions = 0;
    const writes: DocumentWrites[][] = [];
    const watchedStores: Stores = {
      ...stores,
      eventStore: watch(stores.eventStore, {
        subscribeToAll: (options) => (subscriptions++, stores.eventStore.subscribeToAll(options)),
      }) as Stores['eventStore'],
      readStore: {
        ...stores.readStore,
        writeDocuments: (batch, last) => (writes.push([...batch, ...(last ? [last] : [])]), stores.readStore.writeDocuments(batch, last)),
      },
    };
    engine = engineOn(watchedStores, [holidays.projection, cancellations.projection]).engine;

    await engine.start();

    expect(subscriptions).toBe(1);
    expect(holidays.applied).toHaveLength(9);
    expect(cancellations.applied).toHaveLength(9);
    // The 18 events came as one batch: one write holding both projections' documents, then the checkpoints.
    expect(writes).toHaveLength(1);
    expect(writes[0]!.map((write) => [write.collection, write.put.length + (write.insert?.length ?? 0)])).toEqual([
      ['holidays_days_g1', 9],
      ['cancellations_g1', 9],
      ['checkpoints', 2],
    ]);
  });

  it('when events are appended after start, they are applied live and the checkpoint follows at once', async () => {
    const holidays = holidaysProjection();
    const cancellations = cancellationsProjection();
    const started = engineOn(stores, [holidays.projection, cancellations.projection]);
    engine = started.engine;
    await engine.start();
    expect(engine.status().map((s) => [s.name, s.position, s.caughtUp])).toEqual([
      ['holidays', null, true],
      ['cancellations', null, true],
    ]);

    const holiday = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-12-25')]);
    const cancelled = await append(stores.eventStore, 'sale-100000002', [saleCancelled(2)]);

    await eventually(async () => (await checkpointOf(stores.readStore, 'cancellations')) === cancelled);
    // Its checkpoint may also pass the cancellation, which it does not read, when both came in one batch.
    await eventually(async () => ((await checkpointOf(stores.readStore, 'holidays')) ?? -1) >= holiday);
    expect(holidays.applied).toEqual([holiday]);
    expect(cancellations.applied).toEqual([cancelled]);
    expect(await started.routes.collection<Cancellation>('cancellations').findOne({ _id: 2 })).toEqual({
      _id: 2,
      reason: 'customer request',
      _position: cancelled,
    });
  });

  it('when commands append many events at once, the live projections take them in a few batches, not one write each', async () => {
    const holidays = holidaysProjection();
    let writes = 0;
    engine = engineOn(
      { ...stores, readStore: { ...stores.readStore, writeDocuments: (batch, last) => (writes++, stores.readStore.writeDocuments(batch, last)) } },
      [holidays.projection],
    ).engine;
    await engine.start();

    const positions = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        append(stores.eventStore, `holidays-calendar`, [holidayDeclared(`2026-01-${String((i % 28) + 1).padStart(2, '0')}`)]),
      ),
    );
    expect(await engine.waitFor(Math.max(...positions), ['HolidayDeclared'])).toBe(true);

    expect(holidays.applied).toHaveLength(50);
    expect(writes).toBeLessThan(50);
  });

  it('when one append brings several events after a quiet moment, they are applied in one batch: no read sees part of a command', async () => {
    const holidays = holidaysProjection();
    const written: number[] = [];
    engine = engineOn(
      {
        ...stores,
        readStore: {
          ...stores.readStore,
          writeDocuments: (batch, last) => (
            written.push(batch.reduce((sum, { put, insert = [] }) => sum + put.length + insert.length, 0)),
            stores.readStore.writeDocuments(batch, last)
          ),
        },
      },
      [holidays.projection],
    ).engine;
    await engine.start();
    await new Promise((resolve) => setTimeout(resolve, 20));

    const last = await append(stores.eventStore, 'holidays-calendar', ['2026-05-01', '2026-05-08', '2026-07-14', '2026-08-15'].map(holidayDeclared));

    expect(await engine.waitFor(last, ['HolidayDeclared'])).toBe(true);
    expect(written.filter((documents) => documents > 0)).toEqual([4]);
  });

  it('when stopped, the projections report not running, the checkpoints of those with nothing to write are saved, and no lease is reported lost', async () => {
    const holidays = holidaysProjection();
    const cancellations = cancellationsProjection();
    const logged = recordingLog();
    engine = engineOn(stores, [holidays.projection, cancellations.projection], { log: logged.log }).engine;
    await engine.start();
    const last = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-08-15')]);
    await eventually(() => holidays.applied.length === 1);

    await engine.stop();

    expect(engine.status().map((status) => [status.name, status.position, status.running])).toEqual([
      ['holidays', last, false],
      ['cancellations', last, false],
    ]);
    expect(await checkpointOf(stores.readStore, 'holidays')).toBe(last);
    expect(await checkpointOf(stores.readStore, 'cancellations')).toBe(last);
    expect(logged.lines.filter((line) => line.message.includes('lease lost'))).toEqual([]);
  });
  it('when another instance runs the projections and is still behind the log, this one is ready only once they have reached the head it started at', async () => {
    const positions: number[] = [];
    for (let day = 1; day <= 6; day++) positions.push(await append(stores.eventStore, 'holidays-calendar', [holidayDeclared(`2025-07-0${day}`)]));
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first instance takes the lease and stops at the fourth event (one event per batch: its checkpoint follows each).
    const slow = holidaysProjection('holidays', {
      blockOn: (event) => (event.type === 'HolidayDeclared' && event.data.date === '2025-07-04' ? held : undefined),
    });
    const first = engineOn(stores, [slow.projection], { maxBatch: 1 }).engine;
    const firstStarted = first.start();
    await eventually(async () => (await checkpointOf(stores.readStore, 'holidays')) === positions[2]);

    const second = engineOn(stores, [holidaysProjection().projection]);
    engine = second.engine;
    const secondStarted = engine.start();
    // It follows the first instance's checkpoint: where it stands, not ready, the API answering 503.
    await eventually(() => engine!.progress().position === positions[2]);
    expect(engine.progress()).toMatchObject({ ready: false, position: positions[2], head: positions[5] });
    expect(engine.isReady()).toBe(false);
    expect(engine.status()).toEqual([expect.objectContaining({ name: 'holidays', position: positions[2], elsewhere: true })]);

    release();
    await secondStarted;
    expect(engine.isReady()).toBe(true);
    expect(await second.routes.collection(slow.collection).countDocuments()).toBe(6);
    await firstStarted;
    await first.stop();
  });
  it('when another instance runs a dozen projections, this one waits for each of them without a warning of a listener leak', async () => {
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-07-01')]);
    const dozen = Array.from({ length: 12 }, (_, i) => holidaysProjection(`holidays-${i}`).projection);
    const first = engineOn(stores, dozen).engine;
    await first.start();
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.name);
    process.on('warning', warned);
    try {
      engine = engineOn(stores, dozen).engine;
      await engine.start();
      expect(engine.status().every((status) => status.elsewhere)).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', warned);
      await first.stop();
    }
  });
  it('when one batch takes longer than a slice to apply, the event loop turns between its events: a server catching up or rebuilding a read model keeps answering', async () => {
    const days = Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10));
    await append(stores.eventStore, 'holidays-calendar', days.map(holidayDeclared));
    // Each event costs a millisecond of this thread; a turn of the event loop is what a request needs to be answered.
    const ledger: ('event' | 'turn')[] = [];
    const holidays = holidaysProjection('holidays', {
      blockOn: () => {
        const until = performance.now() + 1;
        while (performance.now() < until);
        ledger.push('event');
        return undefined;
      },
    });
    engine = engineOn(stores, [holidays.projection], { maxBatch: 2_000 }).engine;
    let turning = true;
    const turn = () => {
      ledger.push('turn');
      if (turning) setImmediate(turn);
    };
    setImmediate(turn);

    await engine.start();
    turning = false;

    expect(holidays.applied).toHaveLength(200);
    expect(await checkpointOf(stores.readStore, 'holidays')).toBe(holidays.applied.at(-1));
    // 200 ms of work in one batch: about twenty turns between its first event and its last, not none.
    const during = ledger.slice(ledger.indexOf('event'), ledger.lastIndexOf('event'));
    expect(during.filter((entry) => entry === 'turn').length).toBeGreaterThanOrEqual(10);
  });
});
