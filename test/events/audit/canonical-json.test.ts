import { describe, expect, it } from 'vitest';
import { seededRandom, type Random } from '../../../src/cli/demo/random.ts';
import { canonicalJson } from '../../../src/events/audit/canonical-json.ts';
import type { JsonValue } from '../../../src/events/store/event-store.ts';

/**
 * The text a leaf of the log's tree is made of (docs/audit.md): every object's keys sorted by UTF-16
 * code units at every depth, no white space, strings and numbers as JSON.stringify writes them. Held
 * against the definition written out plainly, on values drawn at random with the keys that trip
 * JavaScript's own key order (array indices such as "9" and "10", "01", punctuation, accents).
 */

/** The definition, as plainly as it can be written. */
const byDefinition = (value: JsonValue | undefined): string => {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(byDefinition).join(',')}]`;
  if (typeof value !== 'object') return JSON.stringify(value);
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${byDefinition(value[key])}`).join(',')}}`;
};

const keys = ['a', 'b', 'B', 'id', 'type', 'é', 'z', '9', '10', '01', '0', '-x', '$ref', ' ', 'data', 'ünïcode', '\u{1F600}', '\uFFFF'];

const randomValue = (random: Random, depth: number): JsonValue | undefined => {
  switch (depth > 3 ? random.int(0, 4) : random.int(0, 6)) {
    case 0:
      return random.int(-1_000_000, 1_000_000);
    case 1:
      return random.pick(['', 'texte "cité"\n', 'é\u0000\u2028', '\uD800', 'plain']);
    case 2:
      return random.chance(0.5);
    case 3:
      return null;
    case 4:
      return random.chance(0.1) ? undefined : random.between(-1e6, 1e6);
    case 5:
      return Array.from({ length: random.int(0, 4) }, () => randomValue(random, depth + 1)) as JsonValue;
    default: {
      const object: { [key: string]: JsonValue } = {};
      for (const key of random.sample(keys, random.int(0, 6))) object[key] = randomValue(random, depth + 1) as JsonValue;
      return object;
    }
  }
};

describe('the canonical JSON of a leaf', () => {
  it('when keys are out of order at any depth, they are sorted; undefined keys are left out, undefined items written null', () => {
    const value = { type: 'SaleImported', data: { z: [3, { y: 'é"\n', x: null, w: undefined }, undefined], a: true }, id: 'e-1' } as unknown as JsonValue;
    expect(canonicalJson(value)).toBe('{"data":{"a":true,"z":[3,{"x":null,"y":"é\\"\\n"},null]},"id":"e-1","type":"SaleImported"}');
  });

  it('when keys are array indices, they are sorted as text, not as numbers', () => {
    const value = { b: 1, '10': 2, '9': 3, '01': 4, '-x': 5, a: { '2': true, '11': false } };
    expect(canonicalJson(value)).toBe('{"-x":5,"01":4,"10":2,"9":3,"a":{"11":false,"2":true},"b":1}');
  });

  it('when a value is drawn at random, its text is the definition, and reads back as the value', () => {
    const random = seededRandom(9162, 'canonical-json');
    for (let round = 0; round < 2_000; round++) {
      const value = randomValue(random, 0);
      const text = canonicalJson(value);
      expect(text, JSON.stringify(value)).toBe(byDefinition(value));
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value ?? null)));
    }
  });

  it('when a number is not finite, it is refused', () => {
    for (const number of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => canonicalJson({ a: { b: number } })).toThrow(/finite numbers only/);
      expect(() => canonicalJson({ '1': [number] })).toThrow(/finite numbers only/);
    }
  });
});
