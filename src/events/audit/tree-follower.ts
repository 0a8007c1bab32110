import { setTimeout as sleep } from 'node:timers/promises';
import { nextTurn } from '../../concurrency/time-slice.ts';
import type { Logger } from '../../logger.ts';
import type { EventStore, JsonObject, RecordedEvent, UnparsedEvent, Subscription } from '../store/event-store.ts';
import { eventLeafHash, unparsedEventLeafHash } from './leaf.ts';
import { startLeafHashing } from './leaf-hashing.ts';
import type { Hash } from './merkle.ts';
import { parsePublicKey, verifyTreeHead, type TreeHead } from './tree-head.ts';
import type { TreeStore } from './tree-store.ts';

/**
 * Every instance follows the log into its own tree (tree-store.ts), as a projection follows it into a
 * read model: in order, as recorded (under the encrypting layer: sealed values as their ciphertext),
 * from the tree's last position; a tree deleted is rebuilt from the whole log. The heads the notary
 * signed (jobs/log-notary.ts, in whichever instance holds its lease) come back as events of the log:
 * each is checked (its signature, the root of this tree at its size) and recorded with its leaf, in
 * the same transaction, before it is served. A read of the log that fails is tried again from the
 * tree's position.
 *
 * A store that offers its events as stored (the embedded one) is read a page at a time while the tree
 * is behind it, each page's leaves made from the stored text (leaf.ts) and written in one transaction,
 * without handing the events over one by one; more than a page behind, most leaves are made on a
 * worker thread (leaf-hashing.ts) while this one reads the next page and writes the last. The
 * subscription then takes over from where the pages stopped, a page or less behind.
 */

export type TreeFollower = {
  start(): void;
  stop(): Promise<void>;
  /** Resolves once the tree holds every event up to `position` (the log's head when omitted). */
  caughtUpTo(position?: number): Promise<void>;
  /** Whether the tree has held the whole log once since the start: from then on it follows it live. */
  caughtUp(): boolean;
  /** Calls `listener` after each batch of leaves the tree took; returns its removal. */
  onGrowth(listener: () => void): () => void;
};

export type TreeFollowerDeps = {
  /** The log as recorded (what the leaves are made of). */
  recorded: EventStore;
  tree: TreeStore;
  log: Logger;
  /** The wait before a failed read of the log is tried again. */
  retryMs?: number;
};

/** Leaves per transaction while catching up (a few tens of milliseconds); live, a batch is what arrived in one turn of the event loop. */
const BATCH = 1_000;

/** An event of the log as the tree takes it: its leaf's hash, and its data when it is a tree head. */
type Arrival = { position: number; hash: Hash; head?: JsonObject };

const arrivalOf = (event: RecordedEvent): Arrival => ({
  position: event.position,
  hash: eventLeafHash(event),
  head: event.type === 'TreeHeadSigned' ? event.data : undefined,
});

const headOf = (event: UnparsedEvent): JsonObject | undefined => (event.type === 'TreeHeadSigned' ? (JSON.parse(event.dataJson) as JsonObject) : undefined);

const arrivalOfUnparsed = (event: UnparsedEvent, hash: Hash): Arrival => ({ position: event.position, hash, head: headOf(event) });

type ReadUnparsed = NonNullable<EventStore['readAllUnparsed']>;

/**
 * The leaves of each page of a catch-up that the follower's thread makes itself, the worker making the
 * others: reading a page and writing it cost about two thirds of making its leaves, so with the worker
 * making them all, the follower's thread waited for it a third of the time (bench:notary's log, on two
 * cores: a quarter made here took the catch-up from about 48,000 to 57,000 events/s).
 */
const HASHED_HERE = BATCH / 4;

export const followLogIntoTree = (deps: TreeFollowerDeps): TreeFollower => {
  const { tree, log } = deps;
  let running = false;
  let following: Promise<void> | undefined;
  let subscription: Subscription | undefined;
  let stopping = new AbortController();
  let caughtUp = false;
  let failure: unknown;
  let pending: RecordedEvent[] = [];
  let flushScheduled = false;
  let waiters: { position: number; resolve: () => void }[] = [];
  const listeners = new Set<() => void>();

  const acceptHead = (position: number, data: JsonObject): void => {
    const head = data as unknown as TreeHead & { publicKey: string };
    const publicKey = parsePublicKey(head.publicKey);
    const valid =
      publicKey !== null && head.treeSize <= tree.size() && verifyTreeHead(head, publicKey) && tree.root(head.treeSize).toString('base64') === head.rootHash;
    if (!valid) {
      log.warn({ position, treeSize: head.treeSize }, 'a tree head in the log does not match the log: not served');
      return;
    }
    tree.recordHead({ ...head, position });
  };

  /** The leaves in one transaction, each head checked and recorded after its leaf; then whoever waits for them is told. */
  const write = (arrivals: readonly Arrival[]): void => {
    if (arrivals.length === 0) return;
    tree.atomically(() => {
      tree.append(arrivals.map((arrival) => ({ hash: arrival.hash, position: arrival.position, isHead: arrival.head !== undefined })));
      for (const arrival of arrivals) if (arrival.head) acceptHead(arrival.position, arrival.head);
    });
    failure = undefined;
    const last = tree.lastPosition();
    const ready = waiters.filter((waiter) => waiter.position <= last);
    waiters = waiters.filter((waiter) => waiter.position > last);
    for (const waiter of ready) waiter.resolve();
    for (const listener of listeners) listener();
  };

  const flush = (): void => {
    flushScheduled = false;
    const batch = pending;
    pending = [];
    write(batch.map(arrivalOf));
  };

  /**
   * Pages of the log as stored, from the tree's last position, until one comes back short (or the
   * follower stops). A log more than a page ahead has its leaves made on a worker thread, which hashes
   * a page while this thread reads the next one and writes the last; this thread makes the leaves of
   * the end of each page itself (HASHED_HERE).
   */
  const catchUp = async (readUnparsed: ReadUnparsed): Promise<void> => {
    let page = await readUnparsed(tree.lastPosition(), BATCH);
    if (page.length < BATCH) return write(page.map((event) => arrivalOfUnparsed(event, unparsedEventLeafHash(event))));
    const hashing = startLeafHashing(log);
    const hash = (events: readonly UnparsedEvent[]): (() => Promise<Hash[]>) => {
      const split = Math.max(events.length - HASHED_HERE, 0);
      const fromWorker = split > 0 ? hashing.hashes(events.slice(0, split)) : Promise.resolve([]);
      // Asked for a page ahead: if the loop leaves before writing it, its hashes fail once the worker is closed, unheard.
      fromWorker.catch(() => undefined);
      const here = events.slice(split).map(unparsedEventLeafHash);
      return async () => [...(await fromWorker), ...here];
    };
    try {
      let hashes = hash(page);
      while (running) {
        const next = page.length < BATCH ? [] : await readUnparsed(page.at(-1)!.position, BATCH);
        const nextHashes = next.length > 0 ? hash(next) : undefined;
        const hashed = await hashes();
        write(page.map((event, i) => arrivalOfUnparsed(event, hashed[i]!)));
        if (!nextHashes) return;
        [page, hashes] = [next, nextHashes];
        // Without a turn between two batches, a catch-up would hold every request until its end.
        await nextTurn();
      }
    } finally {
      await hashing.close();
    }
  };

  /**
   * Whether the tree's last leaf is the leaf of the log's event at its position. A tree file kept from
   * another log (a DATA_DIR's log restored from elsewhere, a LOG_TREE_FILE shared by mistake) would
   * otherwise be followed from its last position and serve proofs of events this log does not hold.
   */
  const treeMatchesLog = async (): Promise<boolean> => {
    const size = tree.size();
    if (size === 0) return true;
    const before = size === 1 ? -1 : (tree.positionOf(size - 2) ?? -1);
    const [event] = await deps.recorded.readAll({ fromPosition: before, maxCount: 1 });
    return event !== undefined && event.position === tree.lastPosition() && eventLeafHash(event).equals(tree.leafHashAt(size - 1) ?? Buffer.alloc(0));
  };

  /** The pages while the store offers them, then one subscription from the tree's last position until it ends: stopped, or failed (thrown). */
  const followOnce = async (): Promise<void> => {
    const { recorded } = deps;
    if (!(await treeMatchesLog())) {
      log.warn({ treeSize: tree.size(), position: tree.lastPosition() }, "the log's tree file holds another log: it is emptied and made again from this one");
      tree.clear();
    }
    if (recorded.readAllUnparsed) await catchUp((after, count) => recorded.readAllUnparsed!(after, count));
    if (!running) return;
    const from = tree.lastPosition();
    const current = deps.recorded.subscribeToAll(from < 0 ? {} : { fromPosition: from });
    subscription = current;
    void current.caughtUp.then(
      () => (caughtUp = true),
      () => undefined,
    );
    let flushFailure: unknown;
    for await (const event of current) {
      pending.push(event);
      if (pending.length >= BATCH) {
        flush();
        await nextTurn();
      } else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(() => {
          try {
            flush();
          } catch (error) {
            flushFailure = error;
            void current.unsubscribe();
          }
        });
      }
    }
    if (flushFailure !== undefined) throw flushFailure;
    flush();
  };

  const follow = async (stopped: AbortSignal): Promise<void> => {
    while (running) {
      try {
        await followOnce();
      } catch (error) {
        if (!running) return;
        failure = error;
        // What was read and not written is read again: the next subscription starts at the tree's last position.
        pending = [];
        log.error({ err: error }, "the log's tree stopped following the log: it tries again");
      }
      if (running) await sleep(deps.retryMs ?? 2_000, undefined, { signal: stopped }).catch(() => undefined);
    }
  };

  return {
    start: () => {
      if (running) return;
      running = true;
      stopping = new AbortController();
      following = follow(stopping.signal);
    },
    stop: async () => {
      running = false;
      stopping.abort();
      await subscription?.unsubscribe();
      await following;
      following = undefined;
      for (const waiter of waiters) waiter.resolve();
      waiters = [];
    },
    caughtUpTo: async (position) => {
      const target = position ?? (await deps.recorded.headPosition());
      if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
      if (tree.lastPosition() >= target) return;
      await new Promise<void>((resolve) => waiters.push({ position: target, resolve }));
    },
    caughtUp: () => caughtUp,
    onGrowth: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
