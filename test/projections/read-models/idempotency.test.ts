import { describe, expect, it } from 'vitest';
import { allProjections } from '../../../src/projections/all-projections.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { deliver, project, readModels } from './project.ts';
import { buildScenario, timezone } from './scenario.ts';

/** Every read model must come out of a redelivered or replayed event exactly as it was. */
describe('projection idempotency', () => {
  const projections = allProjections({ timezone });

  const once = async (events: ReturnType<typeof buildScenario>['events']) => {
    const store = await openTestReadStore();
    await project(store, projections, events);
    return readModels(store, projections);
  };

  it('when the whole log is applied a second time, every read model is as after the first', async () => {
    const { events } = buildScenario();
    const store = await openTestReadStore();
    await project(store, projections, events);
    await deliver(store, projections, events);

    expect(await readModels(store, projections)).toEqual(await once(events));
  });

  it('when each event is delivered twice in a row, every read model is as with one delivery', async () => {
    const { events } = buildScenario();
    const store = await openTestReadStore();
    await project(
      store,
      projections,
      events.flatMap((event) => [event, event]),
    );

    expect(await readModels(store, projections)).toEqual(await once(events));
  });

  it('when the log is applied once, every projection has written its collections', async () => {
    const models = await once(buildScenario().events);
    const empty = Object.entries(models)
      .filter(([, documents]) => documents.length === 0)
      .map(([name]) => name);
    expect(empty).toEqual([]);
  });
});
