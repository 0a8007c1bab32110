import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectionEngine } from '../../../src/projections/engine/engine.ts';
import {
  append,
  cancellationsProjection,
  checkpointOf,
  eventually,
  holidayDeclared,
  holidaysProjection,
  engineOn,
  openStores,
  type Stores,
  recordingLog,
  saleCancelled,
} from './engine-fixtures.ts';

describe('projection engine: a projection that throws', () => {
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

  it('when apply throws while catching up, that projection stops with its error, keeps its checkpoint before the event, and the others go on', async () => {
    const good = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-01-01')]);
    const failing = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01')]);
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-08')]);
    const holidays = holidaysProjection('holidays', { failOn: (event) => event.position === failing });
    const cancellations = cancellationsProjection();
    const { lines, log } = recordingLog();
    engine = engineOn(stores, [holidays.projection, cancellations.projection], { log }).engine;

    await engine.start();
    const cancelled = await append(stores.eventStore, 'sale-100000005', [saleCancelled(5)]);
    // Applied: handed to the projection and written (a write to MongoDB takes a round trip).
    await eventually(() => engine?.status()[1]?.position === cancelled);

    expect(holidays.applied).toEqual([good]);
    expect(await checkpointOf(stores.readStore, 'holidays')).toBe(good);
    expect(engine.status()).toEqual([
      {
        name: 'holidays',
        version: 1,
        generation: 1,
        position: good,
        caughtUp: true,
        running: false,
        lastError: `HolidayDeclared at position ${failing}: cannot apply 2025-05-01`,
      },
      { name: 'cancellations', version: 1, generation: 1, position: cancelled, caughtUp: true, running: true, lastError: null },
    ]);
    expect(lines).toContainEqual({
      level: 'error',
      message: 'Projection stopped on an event it could not apply',
      fields: expect.objectContaining({ projection: 'holidays', eventType: 'HolidayDeclared', position: failing, error: 'cannot apply 2025-05-01' }),
    });
  });

  it('when apply throws on a live event, the projection stops there and a restart retries that event', async () => {
    let broken = true;
    const holidays = holidaysProjection('holidays', { failOn: () => broken });
    engine = engineOn(stores, [holidays.projection], { log: recordingLog().log }).engine;
    await engine.start();
    const failing = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01')]);
    await eventually(() => engine?.status()[0]?.running === false);
    expect(engine.status()[0]?.lastError).toMatch(/cannot apply 2025-05-01/);
    expect(await checkpointOf(stores.readStore, 'holidays')).toBeUndefined();

    await engine.stop();
    broken = false;
    engine = engineOn(stores, [holidays.projection], { log: recordingLog().log }).engine;
    await engine.start();

    expect(holidays.applied).toEqual([failing]);
    expect(engine.status()[0]).toMatchObject({ running: true, lastError: null, position: failing });
  });
});
