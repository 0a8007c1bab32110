import { rm } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/config.ts';
import { consistencyOf, inclusionOf } from '../../src/events/audit/log-proofs.ts';
import { createLogger } from '../../src/logger.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
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
    api.runtime.logAudit!.follower.start();
    await api.runtime.logAudit!.notary.start();
  });

  afterAll(async () => {
    await api?.close();
  });

  it('when events arrive, a head covering them is signed within T seconds and recorded in the log', async () => {
    await api.tokenFor('auditor');
    const head = await api.runtime.eventStore.headPosition();
    await eventually(async () => (await heads()).length > 0, 5_000);
    expect(api.runtime.logAudit!.tree.leafIndexAt(head)).toBeLessThan((await heads()).at(-1)!.treeSize);
  });

  it('when the log grew only by heads, or not at all, no new head is signed', async () => {
    await eventually(async () => api.runtime.logAudit!.tree.size() === (await api.runtime.personalData.recorded.readAll()).length, 5_000);
    const before = await heads();
    await sleep(800);
    expect(await heads()).toEqual(before);
  });

  it('when more events arrive, the next head covers them and continues the last one', async () => {
    const before = await heads();
    await api.tokenFor('core');
    await api.tokenFor('analyst');
    const written = await api.runtime.eventStore.headPosition();
    await eventually(async () => ((await heads()).at(-1)?.treeSize ?? 0) > (api.runtime.logAudit!.tree.leafIndexAt(written) ?? Infinity), 5_000);
    const after = await heads();
    expect(after.at(-1)!.treeSize).toBeGreaterThan(before.at(-1)!.treeSize);
  });
});

/**
 * Two instances on one log, each with its own tree (LOG_TREE_FILE): what one signs, the other's tree
 * records and proves alike; two signing at once (a holder frozen past its lease) record one head.
 */
describe('the log tree in every instance, one signer at a time', () => {
  let api: ApiHarness;
  let other: Runtime;
  const slow = { LOG_HEAD_EVERY_EVENTS: '1000000', LOG_HEAD_EVERY_SECONDS: '3600' };
  const heads = async () =>
    (await api.runtime.personalData.recorded.readAll({ filter: { eventTypes: ['TreeHeadSigned'] } })).map(
      (event) => event.data as { treeSize: number; rootHash: string; instanceId: string },
    );

  let otherTreeFile: string;
  let otherConfig: Config;

  /** A tree file as the first layout left it: the leaves' hashes among the subtrees, no version. */
  const writeOlderLayout = (file: string) => {
    const db = new Database(file);
    db.exec(`CREATE TABLE subtrees (level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (level, idx)) WITHOUT ROWID;
      CREATE TABLE leaves (idx INTEGER PRIMARY KEY, position INTEGER NOT NULL UNIQUE);
      CREATE TABLE state (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT INTO state VALUES ('size', 1), ('lastPosition', 1);
      INSERT INTO leaves VALUES (0, 1);`);
    db.close();
  };

  beforeAll(async () => {
    api = await startApi({ env: slow });
    otherTreeFile = path.join(api.dataDir, 'other', 'log-tree.sqlite');
    otherConfig = loadConfig({ DATA_DIR: api.dataDir, LOG_TREE_FILE: otherTreeFile, LOG_LEVEL: 'silent', ...slow });
    other = await openRuntime(otherConfig, createLogger('silent'), { readYourWrites: false });
    api.runtime.logAudit!.follower.start();
    other.logAudit!.follower.start();
  });

  afterAll(async () => {
    await other?.close();
    await api?.close();
  });

  it("when one instance signs a head, the other's own tree records it and answers the same proofs", async () => {
    await api.tokenFor('auditor');
    await api.runtime.logAudit!.follower.caughtUpTo();
    const signed = await api.runtime.logAudit!.notary.signNow();
    expect(signed).not.toBeNull();
    await other.logAudit!.follower.caughtUpTo();
    const [here, there] = [api.runtime.logAudit!.tree, other.logAudit!.tree];
    expect(there.latestHead()).toEqual(here.latestHead());
    expect(there.latestHead()).toMatchObject({ treeSize: signed!.treeSize, rootHash: signed!.rootHash });
    const first = (await api.runtime.personalData.recorded.readAll({ maxCount: 1 }))[0]!.position;
    expect(inclusionOf(there, first)).toEqual(inclusionOf(here, first));
    expect(consistencyOf(there, 1)).toEqual(consistencyOf(here, 1));
  });

  it('when two instances sign at once, one head is recorded and the other refused; a tree behind the last head signs none', async () => {
    await api.tokenFor('core');
    await Promise.all([api.runtime.logAudit!.follower.caughtUpTo(), other.logAudit!.follower.caughtUpTo()]);
    const before = await heads();
    const signed = await Promise.all([api.runtime.logAudit!.notary.signNow(), other.logAudit!.notary.signNow()]);
    expect(signed.filter((head) => head !== null)).toHaveLength(1);
    const after = await heads();
    expect(after).toHaveLength(before.length + 1);

    // The other instance's tree stopped before reading that head: it signs nothing over it.
    await other.logAudit!.follower.stop();
    await api.tokenFor('analyst');
    await api.runtime.logAudit!.follower.caughtUpTo();
    expect(await api.runtime.logAudit!.notary.signNow()).not.toBeNull();
    await api.tokenFor('analyst');
    expect(await other.logAudit!.notary.signNow()).toBeNull();
    // Followed again, it catches up and signs the next head, over the earlier ones.
    other.logAudit!.follower.start();
    await other.logAudit!.follower.caughtUpTo();
    expect(await other.logAudit!.notary.signNow()).not.toBeNull();
    const sizes = (await heads()).map((head) => head.treeSize);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(new Set(sizes).size).toBe(sizes.length);
    expect(new Set((await heads()).map((head) => head.instanceId))).toEqual(new Set([api.runtime.config.instanceId, other.config.instanceId]));
  });

  it('when a tree is deleted, or left in an older layout, it is rebuilt from the log: the same root, the same heads', async () => {
    const here = api.runtime.logAudit!.tree;
    await api.runtime.logAudit!.follower.caughtUpTo();
    for (const olderLayout of [false, true]) {
      await other.close();
      for (const file of [otherTreeFile, `${otherTreeFile}-wal`, `${otherTreeFile}-shm`]) await rm(file, { force: true });
      if (olderLayout) writeOlderLayout(otherTreeFile);
      other = await openRuntime(otherConfig, createLogger('silent'), { readYourWrites: false });
      expect(other.logAudit!.tree.size()).toBe(0);
      other.logAudit!.follower.start();
      await other.logAudit!.follower.caughtUpTo();
      expect(other.logAudit!.tree.size()).toBe(here.size());
      expect(other.logAudit!.tree.root().equals(here.root())).toBe(true);
      expect(other.logAudit!.tree.latestHead()).toEqual(here.latestHead());
    }
  });
});
