/**
 * The `_id`s a generation built from nothing has written so far, per collection, as Bloom filters:
 * a document whose key was never written cannot be in the store, so the batch need not ask it. That
 * is most of what a first build or a rebuild loads (every document starts absent). A "maybe" (a key
 * written, or a false positive, about one in a thousand) asks the store as usual. A megabyte per
 * collection, whatever its size.
 */
export class WrittenKeys {
  private readonly filters = new Map<string, Uint32Array>();

  /** True when no document of that key can have been written to the collection. */
  neverWritten(collection: string, key: string): boolean {
    const bits = this.filters.get(collection);
    if (!bits) return true;
    const [first, second] = hashes(key);
    for (let i = 0; i < probes; i++) {
      const bit = (first + i * second) >>> bitShift;
      if ((bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return true;
    }
    return false;
  }

  add(collection: string, key: string): void {
    let bits = this.filters.get(collection);
    if (!bits) {
      bits = new Uint32Array(words);
      this.filters.set(collection, bits);
    }
    const [first, second] = hashes(key);
    for (let i = 0; i < probes; i++) {
      const bit = (first + i * second) >>> bitShift;
      bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }
}

/** 2^23 bits (1 MiB) and three probes: about one false "maybe" in a thousand at 300,000 keys. */
const bitCount = 2 ** 23;
const bitShift = 32 - 23;
const words = bitCount / 32;
const probes = 3;

/** Two 32-bit FNV-1a hashes of the key (different offsets), combined as h1 + i·h2 (double hashing). */
const hashes = (key: string): [number, number] => {
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
  }
  return [first >>> 0, (second | 1) >>> 0];
};
