import { createHmac, randomBytes } from 'node:crypto';
import { Binary, MongoClient, type UpdateFilter } from 'mongodb';
import { newKey } from './cipher.ts';
import type { CustomerKey, ErasedKey, KeyErasure, KeyStore, MigrationState } from './key-store.ts';
import { normalisedEmail } from '../schema/personal-data.ts';
import { newKeyId } from './sqlite-key-store.ts';

type KeyDocument = { _id: string; subject: string; key: Binary; createdAt: string };
type StreamDocument = { _id: string; keyId: string; stream: string };
type SettingDocument = { _id: string; value: string | number };
type ErasureDocument = { _id: string; erasedAt: string; pending: ErasedKey[] | null };

const isDuplicate = (error: unknown): boolean => (error as { code?: unknown }).code === 11000;

/**
 * The production key store: collections of a database of their own (never the read models', which a
 * rebuild drops whole), on the MongoDB server of `KEYSTORE_MONGODB_URL` or `MONGODB_URL`. Each step is
 * a single-document write, so it needs no transaction: an erasure deletes the key first, then its links,
 * and stays pending (with the key IDs) until the log has recorded it.
 */
export const openMongoKeyStore = async (options: { url: string; dbName: string; now?: () => Date }): Promise<KeyStore> => {
  const client = await new MongoClient(options.url).connect();
  const db = client.db(options.dbName);
  const keys = db.collection<KeyDocument>('customer_keys');
  const streams = db.collection<StreamDocument>('customer_key_streams');
  const settings = db.collection<SettingDocument>('customer_key_settings');
  const erasures = db.collection<ErasureDocument>('customer_erasures');
  await keys.createIndex({ subject: 1 }, { unique: true });
  await streams.createIndex({ keyId: 1 });
  const insertSetting = async (name: string, value: string | number) => {
    await settings.insertOne({ _id: name, value }).catch((error: unknown) => {
      if (!isDuplicate(error)) throw error;
    });
  };
  await insertSetting('pepper', randomBytes(32).toString('base64'));
  await insertSetting('erasures', 0);
  const pepper = Buffer.from(String((await settings.findOne({ _id: 'pepper' }))!.value), 'base64');
  const now = options.now ?? (() => new Date());
  const setting = async (name: string): Promise<string | number | undefined> => (await settings.findOne({ _id: name }))?.value;

  const bytes = (binary: Binary): Buffer => Buffer.from(binary.buffer);

  return {
    subjectOf: (email) => createHmac('sha256', pepper).update(normalisedEmail(email)).digest('hex'),
    async keyFor(subject): Promise<CustomerKey> {
      const existing = await keys.findOne({ subject });
      if (existing) return { keyId: existing._id, key: bytes(existing.key) };
      try {
        const at = now();
        const created = { _id: newKeyId(at), subject, key: new Binary(newKey()), createdAt: at.toISOString() };
        await keys.insertOne(created);
        return { keyId: created._id, key: bytes(created.key) };
      } catch (error) {
        // Another instance created it first: theirs is the customer's.
        if (!isDuplicate(error)) throw error;
        const theirs = await keys.findOne({ subject });
        if (!theirs) throw error;
        return { keyId: theirs._id, key: bytes(theirs.key) };
      }
    },
    async keys(keyIds) {
      if (keyIds.length === 0) return new Map();
      const found = await keys.find({ _id: { $in: [...keyIds] } }).toArray();
      return new Map(found.map((document) => [document._id, bytes(document.key)]));
    },
    async rememberStream(keyId, stream) {
      await streams.updateOne({ _id: `${keyId} ${stream}` }, { $set: { keyId, stream } }, { upsert: true });
    },
    async erase(subject, erasedAt): Promise<KeyErasure> {
      const found = await keys.find({ subject }).toArray();
      if (found.length === 0) {
        const previous = await erasures.findOne({ _id: subject });
        if (previous?.pending) return { status: 'erased', keys: previous.pending };
        return previous ? { status: 'already_erased', erasedAt: previous.erasedAt } : { status: 'unknown' };
      }
      const erased: ErasedKey[] = [];
      for (const { _id: keyId } of found) {
        const sealed = await streams.find({ keyId }).sort({ stream: 1 }).toArray();
        erased.push({ keyId, streams: sealed.map((document) => document.stream) });
      }
      // Pending first: a crash after the key is gone still finds what to record in the log.
      await erasures.replaceOne({ _id: subject }, { erasedAt, pending: erased }, { upsert: true });
      for (const { keyId } of erased) {
        await keys.deleteOne({ _id: keyId });
        await streams.deleteMany({ keyId });
      }
      await settings.updateOne({ _id: 'erasures' }, { $inc: { value: 1 } } as unknown as UpdateFilter<SettingDocument>);
      return { status: 'erased', keys: erased };
    },
    async confirmErasure(subject) {
      await erasures.updateOne({ _id: subject }, { $set: { pending: null } });
    },
    async erasureStamp() {
      return String(await setting('erasures'));
    },
    async migrationState(log): Promise<MigrationState> {
      return { legacyHead: Number((await setting(`legacy_head ${log}`)) ?? -1), migratedUpTo: Number((await setting(`migrated_up_to ${log}`)) ?? -1) };
    },
    async recordLegacyHead(log, head) {
      await insertSetting(`legacy_head ${log}`, head);
    },
    async recordMigratedUpTo(log, position) {
      await settings.updateOne({ _id: `migrated_up_to ${log}` }, { $set: { value: position } }, { upsert: true });
    },
    close: () => client.close(),
  };
};
