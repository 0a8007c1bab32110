import { describe, expect, it } from 'vitest';
import { seededRandom, type Random } from '../../../src/cli/demo/random.ts';
import { canonicalJson } from '../../../src/events/audit/canonical-json.ts';
import { canonicalJsonOfText } from '../../../src/events/audit/canonical-json-text.ts';
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

/** What the text path must answer for `text`: the parsed value's canonical text, or nothing (the caller then parses). */
const expectSameAsParsed = (text: string): string | undefined => {
  const made = canonicalJsonOfText(text);
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    expect(made, text).toBeUndefined();
    return made;
  }
  if (made !== undefined) expect(made, text).toBe(canonicalJson(parsed));
  return made;
};

describe('the canonical JSON of a leaf, made from JSON text without parsing it', () => {
  it('when the text is what JSON.stringify wrote, keys out of order at any depth, it is sorted as the parsed value would be', () => {
    const text = JSON.stringify({
      saleId: 6,
      customer: { lastname: '[erased]', email: '[erased]' },
      products: [{ sku: 'A "B"\\', qty: 1, price: 543.42 }],
      '10': 1,
      '9': [],
    });
    expect(expectSameAsParsed(text)).toBe(
      '{"10":1,"9":[],"customer":{"email":"[erased]","lastname":"[erased]"},"products":[{"price":543.42,"qty":1,"sku":"A \\"B\\"\\\\"}],"saleId":6}',
    );
  });

  it("when a value is drawn at random and written by JSON.stringify, the text made is the parsed value's; only a \\u escape is left to the parse", () => {
    const random = seededRandom(9162, 'canonical-json-text');
    let made = 0;
    for (let round = 0; round < 2_000; round++) {
      const text = JSON.stringify(randomValue(random, 0) ?? null);
      const canonical = expectSameAsParsed(text);
      if (!text.includes('\\u')) expect(canonical, text).toBe(canonicalJson(JSON.parse(text) as JsonValue));
      if (canonical !== undefined) made += 1;
    }
    expect(made).toBeGreaterThan(1_000);
  });

  it('when the text is JSON that JSON.stringify would not write, or not JSON, it is left to the parse or made the same', () => {
    const texts = [
      // White space, escapes JSON.stringify does not write, raw characters it escapes.
      '{ "a": 1 }',
      '{"a":1}\n',
      '{"a":"\\/"}',
      '{"a":"\\u0041"}',
      '{"a":"\\u00e9"}',
      '{"a":"\u0001"}',
      '{"a":"\ud800"}',
      '{"a":"\udc00x"}',
      '{"a\\"":1,"a":2}',
      // Numbers not as JSON.stringify writes them, and some as it does.
      '[1.0,1e3,-0,0.10,1E2,1e+2,01,.5,-,+1,Infinity,NaN]',
      '[1.0]',
      '[1e3]',
      '[-0]',
      '[12345678901234567890]',
      '[9007199254740993]',
      '[123456789012345]',
      '[1e+21,1e21,0.000001,1e-7,-1.5e-7,5e-324,1.7976931348623157e+308,1e400]',
      '[0.1,-0.5,543.42,100,-100,0]',
      // Keys: duplicates, __proto__, digits, empty.
      '{"b":1,"a":2,"b":3}',
      '{"a":1,"a":1}',
      '{"b":1,"__proto__":{"x":1}}',
      '{"__proto__":2}',
      '{"b":1,"10":2,"9":3,"":4,"01":5}',
      '{"é":1,"e":2,"\u{1F600}":3,"\uFFFF":4,"z":5}',
      // Literals, nesting, and text that is not JSON.
      '[true,false,null,{"b":[{}],"a":[[]]}]',
      `${'['.repeat(70)}${']'.repeat(70)}`,
      `${'['.repeat(20)}1${']'.repeat(20)}`,
      '{"a":}',
      '{"a":1,}',
      '[1,]',
      '[1 2]',
      '{"a" 1}',
      '{a:1}',
      '"abc',
      'tru',
      'nul',
      '',
      '[]]',
      '{}{}',
      '"x"',
      '42',
      'null',
    ];
    for (const text of texts) expectSameAsParsed(text);
    expect(canonicalJsonOfText('{"b":1,"__proto__":{"x":1}}')).toBeUndefined();
    // A key named __proto__ is a key like any other: kept, in its place.
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}') as JsonValue)).toBe('{"__proto__":{"x":1},"b":1}');
    expect(canonicalJsonOfText('{"b":1,"a":2,"b":3}')).toBeUndefined();
    expect(canonicalJsonOfText('[1.0]')).toBeUndefined();
    expect(canonicalJsonOfText('{"b":1,"10":2,"9":3,"":4,"01":5}')).toBe('{"":4,"01":5,"10":2,"9":3,"b":1}');
    expect(canonicalJsonOfText('[0.1,-0.5,543.42,100,-100,0]')).toBe('[0.1,-0.5,543.42,100,-100,0]');
    expect(canonicalJsonOfText('[1e+21,1e-7]')).toBe('[1e+21,1e-7]');
    expect(canonicalJsonOfText('{"b":"\u007f\u0085","a":"\u{1F600}"}')).toBe('{"a":"\u{1F600}","b":"\u007f\u0085"}');
    expect(canonicalJsonOfText('{"é":1,"e":2,"\u{1F600}":3,"\uFFFF":4,"z":5}')).toBe('{"e":2,"z":5,"é":1,"\u{1F600}":3,"\uFFFF":4}');
    expect(canonicalJsonOfText('{"b":"x\\n\\"\\t","a":[{"d":null,"c":true}]}')).toBe('{"a":[{"c":true,"d":null}],"b":"x\\n\\"\\t"}');
  });

  it('when a number is not finite, it is left to the parse, which refuses it', () => {
    expect(canonicalJsonOfText('{"a":1e400}')).toBeUndefined();
  });
});
