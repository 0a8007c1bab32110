import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../logger.ts';
import type { EventStore, RecordedEvent, Subscription } from '../store/event-store.ts';
import { eventLeafHash } from './leaf.ts';
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

  const acceptHead = (event: RecordedEvent): void => {
    const head = event.data as unknown as TreeHead & { publicKey: string };
    const publicKey = parsePublicKey(head.publicKey);
    const valid =
      publicKey !== null && head.treeSize <= tree.size() && verifyTreeHead(head, publicKey) && tree.root(head.treeSize).toString('base64') === head.rootHash;
    if (!valid) {
      log.warn({ position: event.position, treeSize: head.treeSize }, 'a tree head in the log does not match the log: not served');
      return;
    }
    tree.recordHead({ ...head, position: event.position });
  };

  const flush = (): void => {
    flushScheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    tree.atomically(() => {
      tree.append(batch.map((event) => ({ hash: eventLeafHash(event), position: event.position, isHead: event.type === 'TreeHeadSigned' })));
      for (const event of batch) if (event.type === 'TreeHeadSigned') acceptHead(event);
    });
    failure = undefined;
    const last = tree.lastPosition();
    const ready = waiters.filter((waiter) => waiter.position <= last);
    waiters = waiters.filter((waiter) => waiter.position > last);
    for (const waiter of ready) waiter.resolve();
    for (const listener of listeners) listener();
  };

  /** One subscription, from the tree's last position, until it ends: stopped, or failed (thrown). */
  const followOnce = async (): Promise<void> => {
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
        // Reading the log chains promises only: without a turn of the event loop between two batches, a
        // catch-up would hold every request until its end.
        await new Promise((resolve) => setImmediate(resolve));
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
