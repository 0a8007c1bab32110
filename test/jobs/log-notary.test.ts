import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { eventually } from '../support/eventually.ts';

/**
 * The notary's rhythm: a head every N events or T seconds once events arrived, none for a log that did
 * not grow or grew only by heads; each head recorded in the log and continuing the earlier ones.
 */
describe('the log notary', () => {
  let api: ApiHarness;
  const heads = async () =>
    (await api.runtime.personalData.recorded.readAll({ filter: { eventTypes: ['TreeHeadSigned'] } })).map((event) => event.data as { treeSize: number });

  beforeAll(async () => {
    api = await startApi({ env: { LOG_HEAD_EVERY_EVENTS: '1000000', LOG_HEAD_EVERY_SECONDS: '0.2' } });
    await api.runtime.logAudit.notary.start();
  });

  afterAll(async () => {
    await api?.close();
  });

  it('when events arrive, a head covering them is signed within T seconds and recorded in the log', async () => {
    await api.tokenFor('auditor');
    const head = await api.runtime.eventStore.headPosition();
    await eventually(async () => (await heads()).length > 0, 5_000);
    expect(api.runtime.logAudit.tree.leafIndexAt(head)).toBeLessThan((await heads()).at(-1)!.treeSize);
  });

  it('when the log grew only by heads, or not at all, no new head is signed', async () => {
    await eventually(async () => api.runtime.logAudit.tree.size() === (await api.runtime.personalData.recorded.readAll()).length, 5_000);
    const before = await heads();
    await sleep(800);
    expect(await heads()).toEqual(before);
  });

  it('when more events arrive, the next head covers them and continues the last one', async () => {
    const before = await heads();
    await api.tokenFor('core');
    await api.tokenFor('analyst');
    const written = await api.runtime.eventStore.headPosition();
    await eventually(async () => ((await heads()).at(-1)?.treeSize ?? 0) > (api.runtime.logAudit.tree.leafIndexAt(written) ?? Infinity), 5_000);
    const after = await heads();
    expect(after.at(-1)!.treeSize).toBeGreaterThan(before.at(-1)!.treeSize);
  });
});
