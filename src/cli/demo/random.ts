/**
 * A seeded pseudo-random source, so that a demo data set is reproducible byte for byte from its seed.
 * The generator is mulberry32: a 32-bit state, good enough statistical quality for fake data, and
 * small enough to read here rather than pulling a dependency in.
 */
export interface Random {
  /** A float in [0, 1). */
  float(): number;
  /** A float in [min, max). */
  between(min: number, max: number): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One value, with odds proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** Like `weighted`, for odds drawn from many times: they are summed up once, each draw is a binary search. */
  weightedPicker<T>(entries: readonly (readonly [T, number])[]): () => T;
}

const mulberry32 = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

// FNV-1a over the seed's decimal form and the stream name: the catalog and the orders of one seed draw
// from unrelated sequences, and seeds such as 1.5 or -1 still give their own sequence.
const hashSeed = (seed: number, stream: string): number => {
  let hash = 0x811c9dc5;
  for (const char of `${seed}/${stream}`) {
    hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  }
  return hash >>> 0;
};

export function seededRandom(seed: number, stream: string): Random {
  const next = mulberry32(hashSeed(seed, stream));
  const random: Random = {
    float: next,
    between: (min, max) => min + next() * (max - min),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('cannot pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted: (entries) => {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let target = next() * total;
      for (const [value, weight] of entries) {
        target -= weight;
        if (target < 0) return value;
      }
      const last = entries[entries.length - 1];
      if (last === undefined) throw new RangeError('cannot pick from an empty list');
      return last[0];
    },
    sample: (items, count) => {
      const pool = [...items];
      // Partial Fisher-Yates: only the first `count` places are drawn.
      const taken = Math.min(count, pool.length);
      for (let i = 0; i < taken; i += 1) {
        const j = i + Math.floor(next() * (pool.length - i));
        [pool[i], pool[j]] = [pool[j] as (typeof pool)[number], pool[i] as (typeof pool)[number]];
      }
      return pool.slice(0, taken);
    },
    weightedPicker: (entries) => {
      if (entries.length === 0) throw new RangeError('cannot pick from an empty list');
      const cumulated: number[] = [];
      let total = 0;
      for (const [, weight] of entries) cumulated.push((total += weight));
      return () => {
        const target = next() * total;
        let low = 0;
        let high = entries.length - 1;
        while (low < high) {
          const middle = (low + high) >> 1;
          if ((cumulated[middle] ?? 0) > target) high = middle;
          else low = middle + 1;
        }
        return (entries[low] as (typeof entries)[number])[0];
      };
    },
  };
  return random;
}
