import type { StoredEvent } from '../store/event-store.ts';
import { storedEventLeafHash } from './leaf.ts';
import { HASH_SIZE } from './merkle.ts';

/**
 * The entry of the worker thread that makes the leaves of a tree catching up with the log
 * (leaf-hashing.ts): the hashes of a page of events as stored, end to end in one array.
 */
export default function hashLeaves(events: readonly StoredEvent[]): Uint8Array {
  const hashes = new Uint8Array(events.length * HASH_SIZE);
  events.forEach((event, i) => hashes.set(storedEventLeafHash(event), i * HASH_SIZE));
  return hashes;
}
