import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMongoReadStore } from '../../../src/projections/read-store/mongo-read-store.ts';
import { DuplicateKeyError } from '../../../src/projections/read-store/read-store.ts';
import type { Document, ReadStore } from '../../../src/projections/read-store/read-store.ts';
import { startFerretDb, type FerretDb } from '../../support/ferretdb-server.ts';
import { readStoreContract, type UnsupportedCases } from './read-store-contract.ts';

/**
 * The MongoDB adapter against a real wire-protocol server: FerretDB (SQLite backend) by default, or
 * the MongoDB named by TEST_MONGODB_URL. Each test works in a database of its own.
 */

let server: FerretDb | undefined;
let url: string;

// The first run builds the FerretDB binary (minutes); later runs find it cached.
beforeAll(async () => {
  url = process.env.TEST_MONGODB_URL ?? (server = await startFerretDb()).url;
}, 20 * 60_000);
afterAll(async () => server?.stop());

const openFresh = async (): Promise<{ store: ReadStore; cleanup: () => Promise<void> }> => {
  const store = await openMongoReadStore({ url, dbName: `read_store_${randomUUID().slice(0, 8)}` });
  return {
    store,
    cleanup: async () => {
      await store.dropAll();
      await store.close();
    },
  };
};

/**
 * What FerretDB 1.24 (SQLite backend) does differently from MongoDB, found by this suite. None of it is
 * used by the read models today (their one unique index is on a scalar field that every document has),
 * except that concurrent writes to one document are not isolated: projections write each document
 * from one runner, one event at a time, so they do not meet it. A real MongoDB runs every case.
 */
const ferretDbUnsupported: UnsupportedCases = {
  'applies $push (with $each), $addToSet (with $each) and $pull': '$pull with a document condition on array elements removes nothing',
  'updates the array element the filter matched, with the positional operator': 'no positional operator `$` in updates',
  'applies concurrent updates of one document one after the other':
    'an update reads, changes and writes back the document without isolation: concurrent $inc are lost',
  'builds the new document from the filter equality fields, then the operators and $setOnInsert':
    'an upsert copies a regex condition into the new document and ignores equalities inside $and',
  'inserts once under concurrent upserts of the same _id': 'concurrent upserts fail with E11000 instead of being retried as updates',
  'counts an identical replacement as not modified': 'replaceOne reports modifiedCount 1 for an identical document',
  'stops an ordered bulk write at the first failure, keeping what came before':
    'a unique-index violation by an update is an InternalError (code 1), not E11000',
  'refuses an insert, update or upsert that duplicates a unique key, and changes nothing':
    'a unique-index violation by an update or a replacement is an InternalError (code 1), not E11000',
  'indexes every element of an array under a unique index': 'unique indexes do not index array elements',
  'treats a missing field as null under a unique index, unless the index is sparse':
    'a missing field does not count as null under a unique index; the sparse option is dropped',
  'refuses to build a unique index over existing duplicates': 'the refusal is an InternalError (code 1), not E11000',
  'groups, sorts, limits and projects':
    "$group's { $sum: 1 } comes out 0 beside a second accumulator, and $project keeps '$_id' as a string instead of evaluating it",
  'unwinds arrays, counts and runs facets': 'no $facet stage',
  'looks up another collection of the same store': 'no $lookup stage',
};

readStoreContract(
  process.env.TEST_MONGODB_URL ? 'mongodb (TEST_MONGODB_URL)' : 'mongodb (ferretdb 1.24)',
  openFresh,
  process.env.TEST_MONGODB_URL ? {} : ferretDbUnsupported,
);

interface Person extends Document {
  _id?: string;
}

describe('mongo read store', () => {
  it('when a unique key is duplicated, throws the port DuplicateKeyError carrying the server error', async () => {
    const { store, cleanup } = await openFresh();
    try {
      const people = store.collection<Person>('people');
      await people.createIndex({ email: 1 }, { unique: true });
      await people.insertOne({ _id: 'a', email: 'a@x' });
      const error = await people.insertOne({ _id: 'b', email: 'a@x' }).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(error).toMatchObject({ code: 11000 });
      expect((error as Error).cause).toMatchObject({ code: 11000 });
    } finally {
      await cleanup();
    }
  });

  it('when the URL names a database, uses it', async () => {
    const dbName = `named_${randomUUID().slice(0, 8)}`;
    const [, hosts, query] = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(url)!;
    const named = await openMongoReadStore({ url: `${hosts}/${dbName}${query ?? ''}` });
    const explicit = await openMongoReadStore({ url, dbName });
    try {
      await named.collection<Person>('people').insertOne({ _id: 'a' });
      expect(await explicit.collection<Person>('people').findOne({ _id: 'a' })).toEqual({ _id: 'a' });
    } finally {
      await named.dropAll();
      await named.close();
      await explicit.close();
    }
  });
});
