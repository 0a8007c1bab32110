import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProjectionEngine, type ProjectionEngine } from '../../../src/projections/engine.ts';
import { saveCheckpoint } from '../../../src/projections/checkpoints.ts';
import {
  append,
  cancellationsProjection,
  type Cancellation,
  checkpointOf,
  eventually,
  holidayDeclared,
  holidayRemoved,
  holidaysProjection,
  openStores,
  type Stores,
  recordingLog,
  saleCancelled,
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

  it('when no checkpoint is stored, start applies the whole log before it resolves and saves the checkpoint', async () => {
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01'), holidayDeclared('2025-05-08')]);
    await append(stores.eventStore, 'sale-100000001', [saleCancelled(1)]);
    const last = await append(stores.eventStore, 'holidays-calendar', [holidayRemoved('2025-05-08')]);
    const holidays = holidaysProjection();
    engine = createProjectionEngine({ ...stores, projections: [holidays.projection], log: recordingLog().log });

    await engine.start();

    expect(holidays.applied).toHaveLength(3);
    expect(await stores.readStore.collection(holidays.collection).find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: '2025-05-01', declared: true, changes: 1, _position: holidays.applied[0] },
      { _id: '2025-05-08', declared: false, changes: 2, _position: last },
    ]);
    expect(await checkpointOf(stores.readStore, 'holidays')).toBe(last);
    expect(engine.status()).toEqual([{ name: 'holidays', position: last, caughtUp: true, running: true, lastError: null }]);
  });

  it('when a checkpoint is stored, the events up to it are not applied again', async () => {
    const first = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01'), holidayDeclared('2025-05-08')]);
    const later = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-07-14')]);
    await saveCheckpoint(stores.readStore, 'holidays', first);
    const holidays = holidaysProjection();
    engine = createProjectionEngine({ ...stores, projections: [holidays.projection], log: recordingLog().log });

    await engine.start();

    expect(holidays.applied).toEqual([later]);
    expect(await checkpointOf(stores.readStore, 'holidays')).toBe(later);
  });

  it('when the engine is restarted, it resumes after the last event it applied', async () => {
    await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-05-01')]);
    const holidays = holidaysProjection();
    engine = createProjectionEngine({ ...stores, projections: [holidays.projection], log: recordingLog().log });
    await engine.start();
    await engine.stop();
    const added = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-11-11')]);

    const again = holidaysProjection();
    engine = createProjectionEngine({ ...stores, projections: [again.projection], log: recordingLog().log });
    await engine.start();

    expect(again.applied).toEqual([added]);
  });

  it('when events are appended after start, they are applied live and the checkpoint follows at once', async () => {
    const holidays = holidaysProjection();
    const cancellations = cancellationsProjection();
    engine = createProjectionEngine({ ...stores, projections: [holidays.projection, cancellations.projection], log: recordingLog().log });
    await engine.start();
    expect(engine.status().map((s) => [s.name, s.position, s.caughtUp])).toEqual([
      ['holidays', null, true],
      ['cancellations', null, true],
    ]);

    const holiday = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-12-25')]);
    const cancelled = await append(stores.eventStore, 'sale-100000002', [saleCancelled(2)]);

    await eventually(async () => (await checkpointOf(stores.readStore, 'cancellations')) === cancelled);
    await eventually(async () => (await checkpointOf(stores.readStore, 'holidays')) === holiday);
    expect(holidays.applied).toEqual([holiday]);
    expect(cancellations.applied).toEqual([cancelled]);
    expect(await stores.readStore.collection<Cancellation>('cancellations').findOne({ _id: 2 })).toEqual({ _id: 2, reason: 'customer request', _position: cancelled });
  });

  it('when stopped, runners report not running and their checkpoints are saved', async () => {
    const holidays = holidaysProjection();
    engine = createProjectionEngine({
      ...stores,
      projections: [holidays.projection],
      log: recordingLog().log,
      // Nothing saved while catching up except by the flushes under test.
      checkpointPolicy: { everyEvents: 1000, everyMs: 60_000 },
    });
    await engine.start();
    const last = await append(stores.eventStore, 'holidays-calendar', [holidayDeclared('2025-08-15')]);
    await eventually(() => holidays.applied.length === 1);

    await engine.stop();

    expect(engine.status()).toEqual([{ name: 'holidays', position: last, caughtUp: true, running: false, lastError: null }]);
    expect(await checkpointOf(stores.readStore, 'holidays')).toBe(last);
  });
});
