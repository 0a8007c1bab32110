import { systemContext, type Clock } from '../events/command-context.ts';
import { appendDomainEvents } from '../events/domain-store.ts';
import { treeHeadStreamName } from '../events/audit/events.ts';
import { signTreeHead, type SigningKey, type TreeHead } from '../events/audit/tree-head.ts';
import type { TreeFollower } from '../events/audit/tree-follower.ts';
import type { TreeStore } from '../events/audit/tree-store.ts';
import { WrongExpectedVersionError, type EventStore } from '../events/store/event-store.ts';
import { holdJobLease, type JobLeaseDeps } from '../leases/job-lease.ts';
import type { LeaseHolder } from '../projections/projection-lease.ts';
import type { Logger } from '../logger.ts';

/**
 * The notary of the log: it signs heads of the tree this instance follows (events/audit/tree-follower.ts)
 * every `headEveryEvents` events or every `headEverySeconds` seconds, whichever comes first, once the
 * tree has caught up with the log, and records each in the log (`TreeHeadSigned` in `treehead-log`).
 * A log that did not grow, or grew only by heads, gets no new head.
 *
 * One signer at a time, whatever the leases say: a head is appended expecting the revision of the
 * last head of `treehead-log`, and only once this tree holds that head. So each head is signed over a
 * tree that contains the one before it: the sizes only grow, and two signers racing (a holder frozen
 * past its lease) append one head, the other's append being refused.
 */

export type LogNotaryDeps = {
  /** The log as recorded: where the last head is read. */
  recorded: EventStore;
  /** The log the heads are appended to. */
  eventStore: EventStore;
  tree: TreeStore;
  follower: TreeFollower;
  key: SigningKey;
  clock: Clock;
  log: Logger;
  /** Recorded with each head: which instance signed it. */
  instanceId: string;
  headEveryEvents: number;
  headEverySeconds: number;
};

export type LogNotary = {
  start(): void;
  stop(): Promise<void>;
  /** Signs a head now if any event is not yet covered by one; the head, or null (nothing to sign, or another signer's head came first). */
  signNow(): Promise<TreeHead | null>;
};

export const createLogNotary = (deps: LogNotaryDeps): LogNotary => {
  const { tree, follower, key } = deps;
  let timer: NodeJS.Timeout | undefined;
  let stopWatching: (() => void) | undefined;
  let signing: Promise<TreeHead | null> | undefined;
  // The size of the last head this instance signed, until its tree reads it back.
  let signedHere = 0;

  const coveredUpTo = (): number => Math.max(signedHere, tree.latestHead()?.treeSize ?? 0);
  /** Whether an event that is not a head came after the last head. */
  const due = (): boolean => tree.lastEventIndex() >= coveredUpTo();

  const sign = async (): Promise<TreeHead | null> => {
    const [last] = await deps.recorded.readStream(treeHeadStreamName, { direction: 'backwards', maxCount: 1 });
    // A head signed elsewhere that this tree has not read yet: the next head waits for it.
    if (last && last.position > tree.lastPosition()) return null;
    if (!due()) return null;
    const size = tree.size();
    const head = signTreeHead(key, size, tree.root(size), deps.clock.now().toISOString());
    try {
      await appendDomainEvents(
        deps.eventStore,
        treeHeadStreamName,
        [{ type: 'TreeHeadSigned', data: { ...head, publicKey: key.raw.toString('base64'), instanceId: deps.instanceId } }],
        systemContext(),
        deps.clock.now(),
        last?.revision ?? 'no_stream',
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      deps.log.info({ treeSize: size }, 'another instance recorded a tree head first: this one is dropped');
      return null;
    }
    signedHere = Math.max(signedHere, size);
    return head;
  };

  /** One signing at a time: a call while one runs shares it. */
  const signNow = (): Promise<TreeHead | null> => {
    if (signing) return signing;
    const current = sign();
    signing = current;
    // Cleared once settled, after it was set (a signing with nothing to sign settles at once).
    const clear = () => (signing === current ? (signing = undefined) : undefined);
    void current.then(clear, clear);
    return current;
  };

  const signWhenDue = (): void => {
    if (!follower.caughtUp() || !due()) return;
    signNow().catch((error: unknown) => deps.log.warn({ err: error }, 'the log notary could not record a tree head'));
  };

  return {
    start: () => {
      if (timer) return;
      stopWatching = follower.onGrowth(() => {
        if (tree.size() - coveredUpTo() >= deps.headEveryEvents) signWhenDue();
      });
      timer = setInterval(signWhenDue, deps.headEverySeconds * 1000);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      timer = undefined;
      stopWatching?.();
      stopWatching = undefined;
      await signing?.catch(() => undefined);
    },
    signNow,
  };
};

export const logNotaryJobName = 'log-notary';

export type LeasedLogNotary = Omit<LogNotary, 'start'> & {
  /** Resolves once the lease was tried a first time (and the notary started, if taken). */
  start(): Promise<void>;
  holding(): boolean;
};

/** The notary in the one instance holding its lease (`job:log-notary`); every instance follows the tree, so the next holder signs at once. */
export const leasedLogNotary = (runtime: JobLeaseDeps, notary: LogNotary): LeasedLogNotary => {
  let lease: LeaseHolder | undefined;
  let holding = false;
  let stopped = false;
  return {
    start: async () => {
      if (lease || stopped) return;
      lease = holdJobLease(runtime, logNotaryJobName, {
        onAcquired: () => {
          holding = true;
          notary.start();
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
    signNow: () => notary.signNow(),
    holding: () => holding,
  };
};
