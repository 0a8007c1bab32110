import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLeafHash, unparsedEventLeaf, eventLeaf } from '../../../src/events/audit/leaf.ts';
import { parsedEvent } from '../../../src/events/store/event-store.ts';
import { startLeafHashing } from '../../../src/events/audit/leaf-hashing.ts';
import { GrowingTree, type Hash } from '../../../src/events/audit/merkle.ts';
import { followLogIntoTree } from '../../../src/events/audit/tree-follower.ts';
import { generateSigningKeyPem, signingKeyFromPem, signTreeHead } from '../../../src/events/audit/tree-head.ts';
import { openTreeStore, type TreeStore } from '../../../src/events/audit/tree-store.ts';
import type { EventStore, JsonObject, NewEvent, RecordedEvent } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';

/**
 * The log's tree built by following a long log (more events than a catch-up page: its leaves made from
 * the events as stored, on a worker thread) is the tree of the leaves made from the events as read and
 * parsed, leaf for leaf: events whose data trips the canonical text (keys beginning with digits,
 * unicode, escapes, nested objects, numbers with fractions) among them, and a signed head recorded
 * halfway. The same when the catch-up is stopped and resumed, and when a read of the log fails.
 */

const quiet = pino({ level: 'silent' });
const key = signingKeyFromPem(generateSigningKeyPem());

/** Data as varied as the log's, and what JSON.stringify writes with escapes the canonical text leaves to the parse. */
const dataOf = (i: number): JsonObject => {
  const tricky: JsonObject[] = [
    { saleId: i, incrementId: String(100_000_000 + i), products: [{ sku: `SKU-${i}`, qty: 1, price: 789.5, wholesalePrice: 543.42 }], grandTotal: 848 },
    { '10': 'ten', '9': 'nine', '01': i, nested: { z: [1, { b: null, a: true }], a: 'é"\\\n\t' } },
    { name: 'Four Élexa « encastrable » 😀', '': 0, ünïcode: ['\uFFFF', '\u2028'], amount: -0.5, big: 1e21, small: 1e-7 },
    { control: 'a\u0001b', lone: 'x\uD800y' },
    { deep: { a: { b: { c: { d: [[], {}, [[1]]] } } } }, proto: JSON.parse('{"b":1,"__proto__":{"x":1}}') as JsonObject },
  ];
  return tricky[i % tricky.length]!;
};

const newEvent = (i: number): NewEvent => ({
  id: randomUUID(),
  type: i % 7 === 0 ? 'ProductCatalogued' : 'SaleImported',
  data: dataOf(i),
  metadata: { actor: { kind: 'system' }, correlationId: `c-${i}`, causationId: `c-${i}`, occurredAt: '2026-11-27T12:00:00.000Z', schemaVersion: 1 },
});

/** The tree of the leaves made from the events as read, parsed: the reference the follower's tree is held to. */
const referenceOf = (events: readonly RecordedEvent[]): { hashes: Hash[]; root: string } => {
  const growing = new GrowingTree();
  const hashes = events.map(eventLeafHash);
  for (const hash of hashes) growing.append(hash);
  return { hashes, root: growing.root().toString('hex') };
};

const catchUp = async (recorded: EventStore, tree: TreeStore, until?: (follower: ReturnType<typeof followLogIntoTree>) => boolean): Promise<void> => {
  const follower = followLogIntoTree({ recorded, tree, log: quiet, retryMs: 10 });
  const stopped = new Promise<void>((resolve) => {
    const stopWatching = follower.onGrowth(() => {
      if (until?.(follower)) {
        stopWatching();
        resolve();
      }
    });
    follower.start();
    void follower.caughtUpTo().then(() => resolve());
  });
  await stopped;
  await follower.stop();
};

describe('the log followed into its tree, from the events as stored', () => {
  let root: string;
  let store: SqliteEventStore;
  let events: RecordedEvent[];
  let headAt: number;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tree-follower-'));
    store = openSqliteEventStore({ file: path.join(root, 'events.sqlite') });
    for (let i = 0; i < 1_300; i += 100)
      await store.appendToStream(
        `sale-${i}`,
        Array.from({ length: 100 }, (_, j) => newEvent(i + j)),
      );
    // A head of the first 1,300 events, recorded in the log as the notary records it, then more events.
    headAt = 1_300;
    const first = referenceOf(await store.readAll());
    const head = signTreeHead(key, headAt, Buffer.from(first.root, 'hex'), '2026-11-27T12:00:00.000Z');
    await store.appendToStream('treehead-log', [
      { ...newEvent(0), type: 'TreeHeadSigned', data: { ...head, publicKey: key.raw.toString('base64'), instanceId: 'spec' } },
    ]);
    for (let i = 1_300; i < 2_700; i += 100)
      await store.appendToStream(
        `sale-${i}`,
        Array.from({ length: 100 }, (_, j) => newEvent(i + j)),
      );
    events = await store.readAll();
  });

  afterAll(async () => {
    await store?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('when events are stored with tricky data, each leaf made from the stored text is the one made from the parsed event', async () => {
    const stored = await store.readAllUnparsed!(-1, 10_000);
    expect(stored).toHaveLength(events.length);
    for (const [i, event] of stored.entries()) {
      expect(unparsedEventLeaf(event).toString('utf8')).toBe(eventLeaf(events[i]!).toString('utf8'));
      expect(parsedEvent(event)).toEqual(events[i]);
    }
  });

  it('when a tree catches up with the whole log, it holds every event, leaf for leaf, and the head recorded halfway', async () => {
    const tree = openTreeStore(path.join(root, 'whole.sqlite'));
    try {
      await catchUp(store, tree);
      const reference = referenceOf(events);
      expect(tree.size()).toBe(events.length);
      expect(tree.leafHashesFrom(0, events.length).map((hash) => hash.toString('hex'))).toEqual(reference.hashes.map((hash) => hash.toString('hex')));
      expect(tree.root().toString('hex')).toBe(reference.root);
      expect(events.map((event) => tree.leafIndexAt(event.position))).toEqual(events.map((_, i) => i));
      expect(tree.latestHead()).toMatchObject({ treeSize: headAt, position: events[headAt]!.position });
    } finally {
      tree.close();
    }
  });

  it('when the catch-up is stopped after a page and started again, and a read of the log fails once, the tree is the same', async () => {
    const tree = openTreeStore(path.join(root, 'resumed.sqlite'));
    try {
      await catchUp(store, tree, () => tree.size() > 0);
      expect(tree.size()).toBeGreaterThan(0);
      expect(tree.size()).toBeLessThan(events.length);
      let failures = 0;
      const failingOnce: EventStore = {
        ...store,
        readAllUnparsed: async (after, count) => {
          if (after > 0 && failures++ === 0) throw new Error('the log could not be read');
          return store.readAllUnparsed!(after, count);
        },
      };
      await catchUp(failingOnce, tree);
      expect(failures).toBeGreaterThan(1);
      expect(tree.size()).toBe(events.length);
      expect(tree.root().toString('hex')).toBe(referenceOf(events).root);
      expect(tree.latestHead()?.treeSize).toBe(headAt);
    } finally {
      tree.close();
    }
  });

  it('when the tree file was made from another log, it is emptied and made again from this one', async () => {
    const other = openSqliteEventStore({ file: path.join(root, 'other-events.sqlite') });
    const tree = openTreeStore(path.join(root, 'from-another-log.sqlite'));
    const logged: string[] = [];
    try {
      await other.appendToStream(
        'sale-other',
        Array.from({ length: 40 }, (_, i) => newEvent(5_000 + i)),
      );
      await catchUp(other, tree);
      expect(tree.size()).toBe(40);

      const follower = followLogIntoTree({ recorded: store, tree, log: pino({ level: 'warn' }, { write: (line: string) => logged.push(line) }), retryMs: 10 });
      follower.start();
      await follower.caughtUpTo();
      await follower.stop();

      expect(tree.size()).toBe(events.length);
      expect(tree.root().toString('hex')).toBe(referenceOf(events).root);
      expect(tree.latestHead()?.treeSize).toBe(headAt);
      expect(logged.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
        "the log's tree file holds another log: it is emptied and made again from this one",
      ]);
    } finally {
      tree.close();
      await other.close();
    }
  });

  it('when the leaves of pages are hashed on the worker thread, they come back in order, and the thread ends when closed', async () => {
    const hashing = startLeafHashing(quiet);
    const stored = await store.readAllUnparsed!(-1, 300);
    const pages = await Promise.all([hashing.hashes(stored.slice(0, 150)), hashing.hashes(stored.slice(150))]);
    expect(pages.flat().map((hash) => hash.toString('hex'))).toEqual(referenceOf(events.slice(0, 300)).hashes.map((hash) => hash.toString('hex')));
    await hashing.close();
    await expect(hashing.hashes(stored)).rejects.toThrow();
  });

  it('when the worker module cannot load, the pages asked for fail rather than hang', async () => {
    const hashing = startLeafHashing(quiet, new URL('../../pdf/unloadable-pdf-worker.mjs', import.meta.url));
    await expect(hashing.hashes((await store.readAllUnparsed!(-1, 10)).slice(0, 10))).rejects.toThrow();
    await hashing.close();
  });
});
