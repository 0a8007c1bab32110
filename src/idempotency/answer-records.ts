import { createHash, randomUUID } from 'node:crypto';
import { DuplicateKeyError, type ReadStore } from '../projections/read-store/read-store.ts';

/**
 * The answers given under an `Idempotency-Key`, kept 24 hours in the read store's
 * `idempotency_records` collection, one document per (calling token, key):
 * `{ _id, tokenId, fingerprint, claimedAt, claimedBy, expiresAt, answer? }`.
 *
 * A request takes its key by inserting the document (the unique `_id` lets exactly one of several
 * racing requests win, on every MongoDB-compatible server, as the projection leases do); the winner
 * runs, then either stores its answer in the document (it recorded events) or deletes it (it
 * recorded nothing: a retry is evaluated again). The others wait for the answer and give it.
 * The document is not derived from the log: it is the answer's bytes, which the log does not hold
 * (answers may name customers, and the log keeps everything forever), while the events themselves
 * carry the key and ids derived from it (src/events/idempotency) should a document be lost.
 */

export const idempotencyCollection = 'idempotency_records';

/** How long a key's answer is given again. */
export const answerLifetimeMs = 24 * 60 * 60 * 1000;

export type RecordedAnswer = {
  status: number;
  /** The body as JSON text (a JSON value) or as it was sent (text). */
  body: string;
  json: boolean;
  /** The answer's Location header, when it had one (a 201's). */
  location?: string;
};

export type AnswerRecord = {
  _id: string;
  tokenId: string;
  fingerprint: string;
  /** ISO-8601 instants: they compare as strings, on every read store. */
  claimedAt: string;
  /** Whose claim it is: only that request stores the answer or gives the key up. */
  claimedBy: string;
  expiresAt: string;
  answer?: RecordedAnswer;
  /** The streams the request wrote: an erasure forgets the answers given about its customer's streams. */
  streams?: string[];
};

export type Claim = { won: true; claimedBy: string } | { won: false; record: AnswerRecord | null };

/** The record's `_id`: the key is the client's, scoped to its token; neither is stored in clear in the id. */
export const recordId = (tokenId: string, key: string): string =>
  createHash('sha256')
    .update(JSON.stringify([tokenId, key]))
    .digest('hex');

export type AnswerRecords = ReturnType<typeof answerRecords>;

export const answerRecords = (store: ReadStore) => {
  const records = () => store.collection<AnswerRecord>(idempotencyCollection);
  let indexed: Promise<unknown> | undefined;
  // The purge deletes by expiry: on the index, never a scan of the collection.
  const ensureIndex = () =>
    (indexed ??= records()
      .createIndex({ expiresAt: 1 }, { name: 'expiresAt' })
      .catch((error: unknown) => {
        indexed = undefined;
        throw error;
      }));

  return {
    find: (id: string): Promise<AnswerRecord | null> => records().findOne({ _id: id }),

    /** Takes the key (inserts its document), or tells who holds it (null: gone since, try again). */
    claim: async (id: string, tokenId: string, fingerprint: string, now: Date): Promise<Claim> => {
      await ensureIndex();
      const claimedBy = randomUUID();
      const claimedAt = now.toISOString();
      const expiresAt = new Date(now.getTime() + answerLifetimeMs).toISOString();
      try {
        await records().insertOne({ _id: id, tokenId, fingerprint, claimedAt, claimedBy, expiresAt });
        return { won: true, claimedBy };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError || (error as { code?: unknown }).code === 11000)) throw error;
        return { won: false, record: await records().findOne({ _id: id }) };
      }
    },

    /** The claimant's answer, given again to every retry until the document expires. */
    answer: async (id: string, claimedBy: string, answer: RecordedAnswer, streams: readonly string[]): Promise<void> => {
      await records().updateOne({ _id: id, claimedBy }, { $set: { answer, streams: [...streams] } });
    },

    /**
     * Deletes the answers of the requests that wrote to these streams: an answer may repeat personal
     * data (an address change gives the new address back), which an erasure must not leave behind.
     * Erasures are rare and the collection holds one day of keyed requests: a filter, not an index.
     */
    forgetStreams: async (streams: readonly string[]): Promise<number> =>
      streams.length === 0 ? 0 : (await records().deleteMany({ streams: { $in: [...streams] } })).deletedCount,

    /**
     * Gives the key up: the claimant's own (it recorded nothing), an expired answer, or the claim of a
     * request that never answered. Filtered on the claim, so that a claim taken since is left alone.
     */
    release: async (id: string, claimedBy: string): Promise<void> => {
      await records().deleteOne({ _id: id, claimedBy });
    },

    /** Deletes the answers expired before `now`; answers how many. */
    purgeExpired: async (now: Date): Promise<number> => {
      await ensureIndex();
      return (await records().deleteMany({ expiresAt: { $lt: now.toISOString() } })).deletedCount;
    },
  };
};
