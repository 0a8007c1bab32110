import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from '../../src/http/json-shape.ts';

const limits = { maxDepth: 4, maxValues: 10 };
const nested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('the shape of a JSON text, measured before it is parsed', () => {
  it('when the text nests and counts within the limits, there is no problem', () => {
    expect(jsonShapeProblem('{"a":{"b":[1,2,3]},"c":"x"}', limits)).toBeNull();
    expect(jsonShapeProblem(nested(4), limits)).toBeNull();
  });

  it('when the text nests one level too deep, the problem names the keys down to there', () => {
    expect(jsonShapeProblem(nested(5), limits)).toEqual({ problem: 'depth', limit: 4, path: 'a.a.a.a' });
  });

  it('when the depth is crossed inside an array, the path names the element', () => {
    expect(jsonShapeProblem('{"items":[{"sku":"A"},{"extra":[[[1]]]}]}', limits)).toEqual({ problem: 'depth', limit: 4, path: 'items.1.extra.0' });
  });

  it('when the text holds too many values, the problem names where the count ran over', () => {
    expect(jsonShapeProblem(`{"pad":[${Array(20).fill('{}').join(',')}]}`, limits)).toEqual({ problem: 'values', limit: 10, path: 'pad.4' });
  });

  it('when braces, brackets, commas and escaped quotes are inside strings, they count for nothing', () => {
    const text = JSON.stringify({ note: '{[{[{[,,,,,,,,,,,,]}]}]} "quoted" \\', other: 'a\\"b' });
    expect(jsonShapeProblem(text, limits)).toBeNull();
  });

  it('when a path is longer than eight keys, it is shortened', () => {
    expect(jsonShapeProblem(nested(40), { maxDepth: 32, maxValues: 10 })?.path).toBe('a.a.a.a.a.a.a.a...');
  });

  it('when the text is not JSON (an unterminated string), it is left to the parser to refuse', () => {
    expect(jsonShapeProblem('{"a": "unterminated', limits)).toBeNull();
  });
});
