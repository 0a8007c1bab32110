import type { UnparsedEvent } from '../store/event-store.ts';
import { unparsedEventLeafHash } from './leaf.ts';
import { HASH_SIZE } from './merkle.ts';

/**
 * The entry of the worker thread that makes the leaves of a tree catching up with the log
 * (leaf-hashing.ts): the hashes of a page of events as stored, end to end in one array.
 */
export default function hashLeaves(events: readonly UnparsedEvent[]): Uint8Array {
  const hashes = new Uint8Array(events.length * HASH_SIZE);
  events.forEach((event, i) => hashes.set(unparsedEventLeafHash(event), i * HASH_SIZE));
  return hashes;
}
