import { systemContext, type Clock } from '../events/command-context.ts';
import { appendDomainEvents } from '../events/domain-store.ts';
import { treeHeadStreamName } from '../events/audit/events.ts';
import { eventLeafHash } from '../events/audit/leaf.ts';
import { parsePublicKey, signTreeHead, verifyTreeHead, type SigningKey, type TreeHead } from '../events/audit/tree-head.ts';
import type { TreeStore } from '../events/audit/tree-store.ts';
import type { EventStore, RecordedEvent, Subscription } from '../events/store/event-store.ts';
import { holdJobLease, type JobLeaseDeps } from '../leases/job-lease.ts';
import type { LeaseHolder } from '../projections/projection-lease.ts';
import type { Logger } from '../logger.ts';

/**
 * The notary of the log: it reads the log in order, as recorded (under the encrypting layer: sealed
 * values as their ciphertext), like a projection, keeps its Merkle tree (tree-store.ts) and signs a
 * tree head every `headEveryEvents` events or every `headEverySeconds` seconds, whichever comes first,
 * recording each head in the log (`TreeHeadSigned` in `treehead-log`). A log that did not grow, or grew
 * only by heads, gets no new head. It resumes from the tree's last position; the tree, deleted, is
 * rebuilt from the log. The heads it reads back from the log are checked (signature, root at their
 * size) before they are served.
 */

export type LogNotaryDeps = {
  /** The log as recorded (what the leaves are made of). */
  recorded: EventStore;
  /** The log the heads are appended to. */
  eventStore: EventStore;
  tree: TreeStore;
  key: SigningKey;
  clock: Clock;
  log: Logger;
  headEveryEvents: number;
  headEverySeconds: number;
};

export type LogNotary = {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once the tree holds every event up to `position` (the log's head when omitted). */
  caughtUpTo(position?: number): Promise<void>;
  /** Signs a head now if any event is not yet covered by one; the head, or null. */
  signNow(): Promise<TreeHead | null>;
};

const BATCH = 2_000;

export const createLogNotary = (deps: LogNotaryDeps): LogNotary => {
  const { tree, key } = deps;
  let subscription: Subscription | undefined;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let caughtUp = false;
  let signing: Promise<TreeHead | null> | undefined;
  let signedUpTo = tree.latestHead()?.treeSize ?? 0;
  let pending: RecordedEvent[] = [];
  let flushScheduled = false;
  let waiters: { position: number; resolve: () => void }[] = [];
  let failure: unknown;

  const acceptHead = (event: RecordedEvent): void => {
    const head = event.data as unknown as TreeHead & { publicKey: string };
    const publicKey = parsePublicKey(head.publicKey);
    const valid =
      publicKey !== null && head.treeSize <= tree.size() && verifyTreeHead(head, publicKey) && tree.root(head.treeSize).toString('base64') === head.rootHash;
    if (!valid) {
      deps.log.warn({ position: event.position, treeSize: head.treeSize }, 'a tree head in the log does not match the log: not served');
      return;
    }
    tree.recordHead({ ...head, position: event.position });
    signedUpTo = Math.max(signedUpTo, head.treeSize);
  };

  const flush = (): void => {
    flushScheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    tree.append(batch.map((event) => ({ hash: eventLeafHash(event), position: event.position, isHead: event.type === 'TreeHeadSigned' })));
    for (const event of batch) if (event.type === 'TreeHeadSigned') acceptHead(event);
    const last = tree.lastPosition();
    const [ready, waiting] = [waiters.filter((waiter) => waiter.position <= last), waiters.filter((waiter) => waiter.position > last)];
    waiters = waiting;
    for (const waiter of ready) waiter.resolve();
    if (caughtUp && tree.lastEventIndex() >= signedUpTo && tree.size() - signedUpTo >= deps.headEveryEvents) void signNow();
  };

  const sign = async (): Promise<TreeHead | null> => {
    const size = tree.size();
    if (tree.lastEventIndex() < signedUpTo || size <= signedUpTo) return null;
    const head = signTreeHead(key, size, tree.root(size), deps.clock.now().toISOString());
    await appendDomainEvents(
      deps.eventStore,
      treeHeadStreamName,
      [{ type: 'TreeHeadSigned', data: { ...head, publicKey: key.raw.toString('base64') } }],
      systemContext(),
      deps.clock.now(),
      'any',
    );
    signedUpTo = Math.max(signedUpTo, size);
    return head;
  };

  /** One signing at a time: a call while one runs shares it. */
  const signNow = (): Promise<TreeHead | null> => {
    if (signing) return signing;
    const current = sign();
    signing = current;
    // Cleared once settled, after it was set (a signing with nothing to sign settles at once).
    void current.then(
      () => (signing === current ? (signing = undefined) : undefined),
      () => (signing === current ? (signing = undefined) : undefined),
    );
    return current;
  };

  const follow = async (current: Subscription): Promise<void> => {
    for await (const event of current) {
      pending.push(event);
      if (pending.length >= BATCH) flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(() => {
          try {
            flush();
          } catch (error) {
            failure = error;
            void current.unsubscribe();
          }
        });
      }
    }
  };

  return {
    start: async () => {
      if (running) return;
      const from = tree.lastPosition();
      const current = deps.recorded.subscribeToAll(from < 0 ? {} : { fromPosition: from });
      subscription = current;
      void current.caughtUp.then(
        () => {
          caughtUp = true;
        },
        () => undefined,
      );
      running = follow(current).catch((error: unknown) => {
        failure = error;
        deps.log.error({ err: error }, 'the log notary stopped');
      });
      timer = setInterval(() => {
        if (!caughtUp) return;
        signNow().catch((error: unknown) => deps.log.warn({ err: error }, 'the log notary could not record a tree head'));
      }, deps.headEverySeconds * 1000);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = undefined;
      await subscription?.unsubscribe();
      await running;
      flush();
      await signing?.catch(() => undefined);
      running = undefined;
      for (const waiter of waiters) waiter.resolve();
      waiters = [];
    },
    caughtUpTo: async (position) => {
      const target = position ?? (await deps.recorded.headPosition());
      if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
      if (tree.lastPosition() >= target) return;
      await new Promise<void>((resolve) => waiters.push({ position: target, resolve }));
    },
    signNow,
  };
};

export const logNotaryJobName = 'log-notary';

/** The notary in the one instance holding its lease (`job:log-notary`): one tree, one signer at a time; the next holder resumes from the tree. */
export const leasedLogNotary = (runtime: JobLeaseDeps, notary: LogNotary): LogNotary & { holding: () => boolean } => {
  let lease: LeaseHolder | undefined;
  let holding = false;
  let stopped = false;
  return {
    start: async () => {
      if (lease || stopped) return;
      lease = holdJobLease(runtime, logNotaryJobName, {
        onAcquired: async () => {
          holding = true;
          await notary.start();
        },
        onLost: async () => {
          holding = false;
          await notary.stop();
        },
      });
      await lease.ready;
    },
    stop: async () => {
      stopped = true;
      await lease?.stop();
      await notary.stop();
    },
    caughtUpTo: (position) => notary.caughtUpTo(position),
    signNow: () => notary.signNow(),
    holding: () => holding,
  };
};
