import { LRUCache } from 'lru-cache';
import { personalDataOf } from '../registry.ts';
import type { EventMetadata, EventStore, JsonObject, NewEvent, RecordedEvent, Subscription } from '../store/event-store.ts';
import { open, seal } from './cipher.ts';
import type { CustomerKey, KeyStore } from './key-store.ts';
import { erasedAt, personalValues, withValuesAt, type PersonalDataRule } from '../schema/personal-data.ts';

/**
 * Crypto-shredding as a layer of the event-store port. On append, the personal fields an event type
 * declares (registry.ts) are sealed with its customer's key (AES-256-GCM, cipher.ts) into the event's
 * metadata, and the data keeps `[erased]` in their place; on every read and subscription they are
 * opened again. Once the key is deleted (an erasure), nothing opens them: every reader (projections,
 * the sale log, replays, the event feed, time travel) sees `[erased]`, and amounts, dates and products,
 * never sealed, stay as recorded.
 *
 * Whose key: the customer of the e-mail an event names (an import, a lead), else the customer of the
 * stream its rule names (a SAV: its sale's) or of its own stream (an address update), found from that
 * stream's first event. Keys are cached (bounded) and dropped when an erasure is seen: in the log read
 * here, or in the key store's erasure stamp, checked at most every `stampCheckMs` (0: every read).
 */

type Open = { key: Buffer } | { key: null };

export type EncryptingEventStoreOptions = {
  /** How often the key store's erasure stamp is checked for erasures made by other processes. */
  stampCheckMs: number;
  cacheSize?: number;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export type EncryptingEventStore = EventStore & {
  /** The events as this layer appends them (the migration of events written before encryption seals them so). */
  sealEvents(streamName: string, events: readonly NewEvent[]): Promise<NewEvent[]>;
};

export const encryptingEventStore = (inner: EventStore, store: KeyStore, options: EncryptingEventStoreOptions): EncryptingEventStore => {
  const max = options.cacheSize ?? 50_000;
  const keys = new LRUCache<string, Open>({ max });
  const subjects = new LRUCache<string, CustomerKey>({ max });
  const streamKeys = new LRUCache<string, string>({ max });
  const remembered = new LRUCache<string, true>({ max });
  /**
   * The values last opened, by event id: a rebuild reads each event once per projection it builds, and
   * a value is opened once. Bounded; dropped with the keys on any erasure.
   */
  const opened = new LRUCache<string, Record<string, unknown>>({ max: 10_000 });
  let stamp: string | undefined;
  let checkedAt = -Infinity;

  const dropKeys = () => {
    keys.clear();
    subjects.clear();
    opened.clear();
  };

  /**
   * Drops the cached keys when an erasure was made elsewhere. While the key store is unreachable the
   * cache is kept (no erasure can be made then; one made just before is also seen in the log, as
   * CustomerErased): a key it does not hold fails the read, never reads as erased.
   */
  const refresh = async (): Promise<void> => {
    if (performance.now() - checkedAt < options.stampCheckMs) return;
    let current: string;
    try {
      current = await store.erasureStamp();
    } catch {
      return;
    }
    checkedAt = performance.now();
    if (stamp !== undefined && current !== stamp) dropKeys();
    stamp = current;
  };

  const keyForEmail = async (email: string): Promise<CustomerKey> => {
    const subject = store.subjectOf(email);
    let found = subjects.get(subject);
    if (!found) {
      found = await store.keyFor(subject);
      subjects.set(subject, found);
      keys.set(found.keyId, { key: found.key });
    }
    return found;
  };

  const keyOf = async (keyId: string): Promise<Buffer | null> => {
    const cached = keys.get(keyId);
    if (cached) return cached.key;
    const found = (await store.keys([keyId])).get(keyId) ?? null;
    keys.set(keyId, { key: found });
    return found;
  };

  const remember = async (keyId: string, streamName: string): Promise<void> => {
    const entry = `${keyId} ${streamName}`;
    if (remembered.has(entry)) return;
    await store.rememberStream(keyId, streamName);
    remembered.set(entry, true);
  };

  /** The key ID of a stream's customer, from its first event: sealed (its metadata), or written before encryption (its data). */
  const keyIdOfStream = async (streamName: string, depth = 0): Promise<string | null> => {
    const cached = streamKeys.get(streamName);
    if (cached) return cached;
    const [first] = await inner.readStream(streamName, { maxCount: 1 });
    if (!first) return null;
    let keyId = first.metadata.personalData?.keyId ?? null;
    const rule = personalDataOf(first.type);
    if (keyId === null && rule && depth < 2) {
      const subject = rule.subject?.(first.data);
      if (subject && 'email' in subject) keyId = (await keyForEmail(subject.email)).keyId;
      else if (subject) keyId = await keyIdOfStream(subject.stream, depth + 1);
    }
    if (keyId !== null) streamKeys.set(streamName, keyId);
    return keyId;
  };

  /** The key an event of `streamName` is sealed with; null when its customer was erased (nothing is then kept). */
  const keyForEvent = async (
    rule: PersonalDataRule,
    data: JsonObject,
    streamName: string,
    batch: Map<string, string>,
  ): Promise<{ keyId: string; key: Buffer | null }> => {
    const subject = rule.subject?.(data) ?? { stream: streamName };
    if ('email' in subject) {
      const { keyId, key } = await keyForEmail(subject.email);
      await remember(keyId, streamName);
      batch.set(streamName, keyId);
      return { keyId, key };
    }
    const keyId = batch.get(subject.stream) ?? (await keyIdOfStream(subject.stream));
    if (keyId === null) throw new Error(`${streamName}: no customer key for the personal data of stream ${subject.stream}`);
    await remember(keyId, streamName);
    batch.set(streamName, keyId);
    return { keyId, key: await keyOf(keyId) };
  };

  const sealEvent = async (streamName: string, event: NewEvent, batch: Map<string, string>): Promise<NewEvent> => {
    const rule = personalDataOf(event.type);
    // Already sealed (or recorded as erased): as it is.
    if (!rule || event.metadata.personalData !== undefined) return event;
    const values = personalValues(event.data, rule.fields);
    if (Object.keys(values).length === 0) return event;
    const { keyId, key } = await keyForEvent(rule, event.data, streamName, batch);
    // An erased customer's stream keeps no new personal data: it is recorded as erased.
    const personalData: EventMetadata['personalData'] = key === null ? { keyId } : { keyId, ...seal(key, event.id, values) };
    return { ...event, data: erasedAt(event.data, rule.fields), metadata: { ...event.metadata, personalData } };
  };

  /** A CustomerErased read here: its key is gone, whatever this process cached. */
  const forgetErased = (event: RecordedEvent): void => {
    if (event.type === 'CustomerErased' && typeof event.data.keyId === 'string' && keys.get(event.data.keyId)?.key !== null) {
      keys.set(event.data.keyId, { key: null });
      opened.clear();
    }
  };

  const openEvent = (event: RecordedEvent): RecordedEvent => {
    forgetErased(event);
    const sealed = event.metadata.personalData;
    if (!sealed) return event;
    const metadata: EventMetadata = { ...event.metadata, personalData: { keyId: sealed.keyId } };
    const key = keys.get(sealed.keyId)?.key;
    if (!key || sealed.iv === undefined || sealed.sealed === undefined) return { ...event, metadata };
    let values = opened.get(event.id);
    if (values === undefined) {
      const found = open(key, event.id, { iv: sealed.iv, sealed: sealed.sealed });
      if (!isRecord(found)) return { ...event, metadata };
      values = found;
      opened.set(event.id, values);
    }
    const fields = personalDataOf(event.type)?.fields;
    if (!fields) return { ...event, metadata };
    return { ...event, data: withValuesAt(event.data, fields, (current, path) => (path in values ? values[path] : current)), metadata };
  };

  /**
   * Opens a page of events: the keys missing from the cache are fetched in one request. A read checks
   * for erasures made elsewhere first; a subscription need not (`fresh` false): what it delivers with a
   * key erased meanwhile is followed, in the log, by the CustomerErased its readers scrub on.
   */
  const openEvents = async (events: RecordedEvent[], fresh = true): Promise<RecordedEvent[]> => {
    if (fresh) await refresh();
    const missing = new Set<string>();
    for (const event of events) {
      forgetErased(event);
      const keyId = event.metadata.personalData?.keyId;
      if (keyId !== undefined && event.metadata.personalData?.sealed !== undefined && !keys.has(keyId)) missing.add(keyId);
    }
    if (missing.size > 0) {
      const found = await store.keys([...missing]);
      for (const keyId of missing) keys.set(keyId, { key: found.get(keyId) ?? null });
    }
    return events.map(openEvent);
  };

  const sealEvents = async (streamName: string, events: readonly NewEvent[]): Promise<NewEvent[]> => {
    await refresh();
    const batch = new Map<string, string>();
    const sealed: NewEvent[] = [];
    for (const event of events) sealed.push(await sealEvent(streamName, event, batch));
    return sealed;
  };

  return {
    sealEvents,
    appendToStream: async (streamName, events, appendOptions) => inner.appendToStream(streamName, await sealEvents(streamName, events), appendOptions),
    readStream: async (streamName, readOptions) => openEvents(await inner.readStream(streamName, readOptions)),
    readAll: async (readOptions) => openEvents(await inner.readAll(readOptions)),
    subscribeToAll: (subscribeOptions): Subscription => {
      const subscription = inner.subscribeToAll(subscribeOptions);
      return {
        caughtUp: subscription.caughtUp,
        unsubscribe: () => subscription.unsubscribe(),
        async *[Symbol.asyncIterator]() {
          for await (const event of subscription) {
            // Most events carry no personal data, or one whose key is cached: opened without waiting.
            const sealed = event.metadata.personalData;
            yield sealed === undefined || keys.has(sealed.keyId) ? openEvent(event) : (await openEvents([event], false))[0]!;
          }
        },
      };
    },
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
  };
};
