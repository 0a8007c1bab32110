import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    expect(engine.status().find((s) => s.name === 'holidays')?.position).toBe(holiday);
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
