import { hostname } from 'node:os';
import type { Clock } from '../events/command-context.ts';
import { DuplicateKeyError } from './read-store/read-store.ts';
import type { ReadStore } from './read-store/read-store.ts';
import { oneAtATime } from '../concurrency/per-key-queue.ts';
import { processIsGone } from '../concurrency/process-gone.ts';

/**
 * Several service instances share one read store; exactly one of them runs each projection at a time,
 * and each singleton job (the label backlog, the lead mails: `job:<name>`, see leases/job-lease.ts).
 * A projection's lease is a succession of terms, one document per term:
 * `{ _id: "<projection>#<term>", projection, term, owner, expiresAt }`; the highest term is the lease.
 * Its owner renews it (only the owner ever updates a term document); once it has expired (or was
 * released), whoever wants the lease inserts the next term, and the unique `_id` lets exactly one
 * contender win. Taking over is thus an insert, the one write every MongoDB-compatible server makes
 * atomic: a conditional update ("if expired, take it") is not atomic on every one of them.
 *
 * Expiry is judged on the clock of the instance that takes over, so the time to live must exceed any
 * clock skew. A holder that overruns its lease unknowingly (a long pause) learns it at its next
 * renewal; meanwhile it may apply events alongside the new holder, harmlessly: the projections'
 * updates are filtered on the position they applied, so nothing is applied twice.
 */

export const leasesCollection = 'projection_leases';

export type ProjectionLease = {
  _id: string;
  projection: string;
  term: number;
  owner: string;
  expiresAt: Date;
  /** The holder's machine and process, so that a holder on this machine known to be dead can be replaced at once. */
  host?: string;
  pid?: number;
};

/**
 * Whether the process holding a lease is gone, when that can be known: a holder on this machine whose
 * process no longer exists (killed) need not be waited for. On other machines only the expiry tells.
 * Only for a read store on this machine (the embedded one): containers sharing a database may have
 * the same host name and process ids from other namespaces.
 */
export const holderIsGone = (lease: Pick<ProjectionLease, 'host' | 'pid'>): boolean => {
  if (lease.host !== hostname() || lease.pid === undefined || lease.pid === process.pid) return false;
  return processIsGone(lease.pid);
};

/** A contender tries again this long after the end of the term it saw (the clocks of one machine agree). */
const expiryMarginMs = 25;

/** Older terms are deleted, all but a few: a contender working from a stale read must still collide. */
const keptTerms = 10;

const leases = (store: ReadStore) => store.collection<ProjectionLease>(leasesCollection);

/** The index `readLease` runs on; called at start, idempotent. */
export const setupLeases = async (store: ReadStore): Promise<void> => {
  await leases(store).createIndex({ projection: 1, term: -1 });
};

/** The current term of a projection's lease, or null if it was never taken. */
export const readLease = (store: ReadStore, projection: string): Promise<ProjectionLease | null> =>
  leases(store).findOne({ projection }, { sort: { term: -1 } });

/** An attempt's outcome: whether `owner` holds the lease, and when the term it saw (its own or another's) ends. */
export type LeaseAttempt = { won: boolean; expiresAt: Date | null };

/** Takes or renews the lease for `ttlMs` from `at`. True when `owner` holds it until then. */
export const acquireLease = async (
  store: ReadStore,
  projection: string,
  owner: string,
  at: Date,
  ttlMs: number,
  options: { replaceDeadHolders?: boolean } = {},
): Promise<boolean> => (await attemptLease(store, projection, owner, at, ttlMs, options)).won;

/** As `acquireLease`, telling also when the term in force ends: a contender tries again right then. */
export const attemptLease = async (
  store: ReadStore,
  projection: string,
  owner: string,
  at: Date,
  ttlMs: number,
  options: { replaceDeadHolders?: boolean } = {},
): Promise<LeaseAttempt> => {
  const expiresAt = new Date(at.getTime() + ttlMs);
  const current = await readLease(store, projection);
  const dead = current !== null && options.replaceDeadHolders === true && current.owner !== owner && holderIsGone(current);
  const expired = !current || current.expiresAt.getTime() <= at.getTime() || dead;
  if (current && !expired) {
    if (current.owner !== owner) return { won: false, expiresAt: current.expiresAt };
    const renewed = await leases(store).updateOne({ _id: current._id, owner }, { $set: { expiresAt } });
    return renewed.matchedCount === 1 ? { won: true, expiresAt } : { won: false, expiresAt: null };
  }
  const term = (current?.term ?? 0) + 1;
  try {
    await leases(store).insertOne({ _id: `${projection}#${term}`, projection, term, owner, expiresAt, host: hostname(), pid: process.pid });
  } catch (error) {
    // Another contender inserted this term first: its end is not known yet, the next attempt reads it.
    if (error instanceof DuplicateKeyError || (error as { code?: unknown }).code === 11000) return { won: false, expiresAt: null };
    throw error;
  }
  await leases(store).deleteMany({ projection, term: { $lte: term - keptTerms } });
  return { won: true, expiresAt };
};

/** Gives the lease up at once (so another instance need not wait for the expiry); only if it is ours. */
export const releaseLease = async (store: ReadStore, projection: string, owner: string): Promise<void> => {
  const current = await readLease(store, projection);
  if (current?.owner !== owner) return;
  await leases(store).updateOne({ _id: current._id, owner }, { $set: { expiresAt: new Date(0) } });
};

export type LeaseHolderOptions = {
  store: ReadStore;
  projection: string;
  /** Unique per service instance (e.g. host name + process id + a random suffix). */
  owner: string;
  clock: Clock;
  /** How long a lease lasts without renewal. */
  ttlMs?: number;
  /**
   * How often to renew it while held, and at most how long a contender waits between two tries; a
   * third of the time to live by default. A contender that saw the term in force tries again as soon
   * as it ends, so that a dead holder is replaced within the time to live plus one attempt.
   */
  renewEveryMs?: number;
  /** The read store is on this machine: a holder whose process is gone is replaced without waiting for the expiry. */
  replaceDeadHolders?: boolean;
  /** Called when this instance starts holding the lease: start the projection. Return promptly (do not
   * wait for its catch-up): renewals wait for the callbacks. */
  onAcquired: () => void | Promise<void>;
  /** Called when it no longer holds it (taken over, or could not renew before the expiry): stop the projection. */
  onLost: () => void | Promise<void>;
  onError?: (error: unknown) => void;
};

export type LeaseHolder = {
  readonly held: boolean;
  /** Settles once the first attempt (and its `onAcquired`, if it won) is done. */
  readonly ready: Promise<void>;
  /** One take-or-renew attempt now (also run on the timer). */
  tick(): Promise<void>;
  /** Stops renewing and releases the lease if held (calling `onLost` first). */
  stop(): Promise<void>;
};

/** Keeps trying to take the lease, renews it while held, and reports each change of hands. */
export const holdLease = (options: LeaseHolderOptions): LeaseHolder => {
  const { store, projection, owner, clock } = options;
  const ttlMs = options.ttlMs ?? 15_000;
  const renewEveryMs = options.renewEveryMs ?? Math.floor(ttlMs / 3);
  let held = false;
  let heldUntil = 0;
  let stopped = false;
  const running = oneAtATime();
  /** When the next attempt is due: a renewal period, or, for a contender, the end of the term in force. */
  let nextDelay = renewEveryMs;

  const attempt = async () => {
    if (stopped) return;
    const at = clock.now();
    let won: boolean;
    nextDelay = renewEveryMs;
    try {
      const outcome = await attemptLease(store, projection, owner, at, ttlMs, { replaceDeadHolders: options.replaceDeadHolders ?? false });
      won = outcome.won;
      if (!won && outcome.expiresAt !== null) {
        nextDelay = Math.min(renewEveryMs, Math.max(expiryMarginMs, outcome.expiresAt.getTime() - clock.now().getTime() + expiryMarginMs));
      }
    } catch (error) {
      options.onError?.(error);
      // Unreachable store: keep the lease as long as the last renewal guarantees it, not longer.
      won = held && clock.now().getTime() < heldUntil;
      if (won) return;
    }
    if (won) heldUntil = at.getTime() + ttlMs;
    if (won && !held && !stopped) {
      held = true;
      await options.onAcquired();
    } else if (!won && held) {
      held = false;
      await options.onLost();
    }
  };
  // Attempts never overlap: each waits for the previous one (and its callbacks), and none rejects.
  const tick = (): Promise<void> => running(attempt).catch((error: unknown) => options.onError?.(error));

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void tick().then(schedule), nextDelay);
    timer.unref();
  };
  const ready = tick();
  void ready.then(schedule);

  return {
    get held() {
      return held;
    },
    ready,
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running(async () => undefined);
      if (!held) return;
      held = false;
      await options.onLost();
      await releaseLease(store, projection, owner).catch((error: unknown) => options.onError?.(error));
    },
  };
};

/**
 * The leases held now by a process that may still be running (another on this machine known dead is
 * not): what `projections reset` refuses to pull the read models from under.
 */
export const liveLeases = async (store: ReadStore, at: Date): Promise<ProjectionLease[]> => {
  const current = new Map<string, ProjectionLease>();
  for (const lease of await leases(store).find({}).toArray()) {
    const known = current.get(lease.projection);
    if (!known || lease.term > known.term) current.set(lease.projection, lease);
  }
  return [...current.values()].filter((lease) => lease.expiresAt.getTime() > at.getTime() && !holderIsGone(lease));
};
