import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, ReadAllOptions, SubscribeToAllOptions, Subscription } from '../../../src/events/store/event-store.ts';
import type { ProjectionEngine } from '../../../src/projections/engine/engine.ts';
import {
  append,
  cancellationsProjection,
  holidayDeclared,
  holidaysProjection,
  engineOn,
  openStores,
  type Stores,
  type HolidayDay,
  recordingLog,
  saleCancelled,
} from './engine-fixtures.ts';

describe('projection engine: read-your-writes', () => {
  let stores: Stores;
  let engine: ProjectionEngine | undefined;
  let release: () => void = () => undefined;

  beforeEach(async () => {
    stores = await openStores();
  });

  afterEach(async () => {
    release();
    await engine?.stop();
    engine = undefined;
    await stores.close();
  });

  it('when the event is applied, waitFor resolves true and the read model shows the write', async () => {
    const holidays = holidaysProjection();
    const started = engineOn(stores, [holidays.projection], { log: recordingLog().log });
    engine = started.engine;
    await engine.start();

    const position = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-29')]);
    const reached = await engine.waitFor(position, ['HolidayDeclared']);

    expect(reached).toBe(true);
    expect(await started.routes.collection<HolidayDay>(holidays.collection).findOne({ _id: '2025-05-29' })).toMatchObject({ declared: true });
  });

  it('when the last event of the write is of a type the projection does not read, waitFor still resolves true once its own event is applied', async () => {
    const holidays = holidaysProjection();
    const cancellations = cancellationsProjection();
    engine = engineOn(stores, [holidays.projection, cancellations.projection], { log: recordingLog().log }).engine;
    await engine.start();

    // One write whose last event only the other projection reads.
    const holiday = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-06-09')]);
    const position = await append(stores.eventStore, 'sale-100000003', [saleCancelled(3)]);
    const reached = await engine.waitFor(position, ['HolidayDeclared']);

    expect(reached).toBe(true);
    expect(holidays.applied).toEqual([holiday]);
    // Its position is where its batch ended: its own event, or the other one if they came together.
    expect([holiday, position]).toContain(engine.status().find((s) => s.name === 'holidays')?.position);
  });

  it('when the event reaches the projection only while waitFor looks in the log, waitFor still resolves true without waiting for the time-out', async () => {
    // A store at a network's distance: events reach the subscription late, and reads take a while.
    const late: EventStore = Object.create(stores.eventStore, {
      subscribeToAll: {
        value: (options: SubscribeToAllOptions): Subscription => {
          const inner = stores.eventStore.subscribeToAll(options);
          return {
            caughtUp: inner.caughtUp,
            unsubscribe: () => inner.unsubscribe(),
            async *[Symbol.asyncIterator]() {
              for await (const event of inner) {
                await sleep(150);
                yield event;
              }
            },
          };
        },
      },
      readAll: { value: async (options: ReadAllOptions) => (await sleep(200), stores.eventStore.readAll(options)) },
    });
    const holidays = holidaysProjection();
    engine = engineOn(stores, [holidays.projection], { eventStore: late, log: recordingLog().log, readYourWritesTimeoutMs: 5_000 }).engine;
    await engine.start();

    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-07-14')]);
    const position = await append(stores.eventStore, 'sale-100000005', [saleCancelled(5)]);
    const startedAt = Date.now();

    expect(await engine.waitFor(position, ['HolidayDeclared'])).toBe(true);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it('when many writes wait while the projection is busy, the log is looked at once, not for each of them', async () => {
    let reads = 0;
    const counted: EventStore = Object.create(stores.eventStore, {
      readAll: { value: (options: ReadAllOptions) => ((reads += 1), stores.eventStore.readAll(options)) },
    });
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const holidays = holidaysProjection('holidays', { blockOn: (event) => (event.type === 'HolidayDeclared' ? blocked : undefined) });
    engine = engineOn(stores, [holidays.projection], { eventStore: counted, log: recordingLog().log, readYourWritesTimeoutMs: 5_000 }).engine;
    await engine.start();

    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-08-15')]);
    const positions = [];
    for (let sale = 10; sale < 60; sale++) positions.push(await append(stores.eventStore, `sale-1000000${sale}`, [saleCancelled(sale)]));
    const waits = positions.map((position) => engine!.waitFor(position, ['HolidayDeclared']));
    await sleep(300);
    expect(reads).toBe(0);
    release();

    expect(await Promise.all(waits)).toEqual(positions.map(() => true));
    expect(reads).toBeLessThanOrEqual(2);
  });

  it('when no projection reads the written types, waitFor resolves true at once', async () => {
    engine = engineOn(stores, [holidaysProjection().projection], { log: recordingLog().log }).engine;
    await engine.start();
    const position = await append(stores.eventStore, 'sale-100000004', [saleCancelled(4)]);

    expect(await engine.waitFor(position, ['SaleCancelled'])).toBe(true);
  });

  it('when a projection is stuck on the event, waitFor resolves false after the time-out and logs a warning', async () => {
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const holidays = holidaysProjection('holidays', { blockOn: (event) => (event.type === 'HolidayDeclared' ? blocked : undefined) });
    const { lines, log } = recordingLog();
    engine = engineOn(stores, [holidays.projection], { log, readYourWritesTimeoutMs: 100 }).engine;
    await engine.start();

    const position = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-04-21')]);
    const startedAt = Date.now();
    const reached = await engine.waitFor(position, ['HolidayDeclared']);

    expect(reached).toBe(false);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(90);
    const warnings = lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields).toMatchObject({ position, lagging: [{ name: 'holidays', position: null, running: true }] });

    release();
    expect(await engine.waitFor(position, ['HolidayDeclared'])).toBe(true);
  });

  it('when a projection has stopped on an error, waitFor resolves false without waiting for the time-out', async () => {
    const holidays = holidaysProjection('holidays', { failOn: () => true });
    engine = engineOn(stores, [holidays.projection], { log: recordingLog().log, readYourWritesTimeoutMs: 60_000 }).engine;
    await engine.start();

    const position = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-04-21')]);

    expect(await engine.waitFor(position, ['HolidayDeclared'])).toBe(false);
  });
});
