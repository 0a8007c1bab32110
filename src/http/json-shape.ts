/**
 * The shape of a JSON text, measured before it is parsed: how deep it nests and how many values it
 * holds. JSON.parse builds the whole tree in one native call and recurses once per level, so a small
 * body of `[{},{},...]` becomes hundreds of thousands of objects and a deep one overflows the stack:
 * bounding both before the parse bounds what any parse can cost (at most `maxValues` values, each at
 * most as large as the text that spells it).
 */

export type JsonShapeLimits = { maxDepth: number; maxValues: number };

/** Why a text is refused: `path` names where it went too deep or too wide (`items.0.extra.a`), shortened. */
export type JsonShapeProblem = { problem: 'depth' | 'values'; limit: number; path: string };

const quote = 0x22;
const backslash = 0x5c;
const openObject = 0x7b;
const closeObject = 0x7d;
const openArray = 0x5b;
const closeArray = 0x5d;
const comma = 0x2c;
const colon = 0x3a;

const shownSegments = 8;

/** The key or index of each open container, for naming where a limit was crossed. */
class PathTracker {
  private readonly keys: string[] = [];
  private readonly indexes: (number | null)[] = [];
  private pendingKey: string | null = null;

  /** Enters a container: it is the value of the last key, or an element of the enclosing array. */
  open(isArray: boolean): void {
    const depth = this.indexes.length;
    if (depth > 0) this.keys[depth - 1] = this.segment(depth - 1);
    this.indexes.push(isArray ? 0 : null);
    this.pendingKey = null;
  }

  close(): void {
    this.indexes.pop();
    this.keys.length = this.indexes.length;
  }

  key(text: string): void {
    this.pendingKey = text;
  }

  next(): void {
    const depth = this.indexes.length;
    const index = this.indexes[depth - 1];
    if (index !== null && index !== undefined) this.indexes[depth - 1] = index + 1;
  }

  /** Where the next value goes: the keys and indexes of the open containers, then its own key or index. */
  path(): string {
    const depth = this.indexes.length;
    const segments = depth === 0 ? [] : [...this.keys.slice(0, depth - 1), this.segment(depth - 1)];
    return segments.length > shownSegments ? `${segments.slice(0, shownSegments).join('.')}...` : segments.join('.');
  }

  private segment(level: number): string {
    const index = this.indexes[level];
    return index === null || index === undefined ? (this.pendingKey ?? '') : String(index);
  }
}

/** The end of the string starting at `start` (its opening quote): the index of its closing quote, or -1. */
const stringEnd = (text: string, start: number): number => {
  let at = start;
  for (;;) {
    const end = text.indexOf('"', at + 1);
    if (end < 0) return -1;
    let backslashes = 0;
    for (let i = end - 1; i > start && text.charCodeAt(i) === backslash; i--) backslashes++;
    if (backslashes % 2 === 0) return end;
    at = end;
  }
};

/**
 * Measures `text` in one pass without building anything; null when it is within the limits (or not
 * JSON at all: JSON.parse says so next, with its own error).
 */
export const jsonShapeProblem = (text: string, limits: JsonShapeLimits): JsonShapeProblem | null => {
  const path = new PathTracker();
  let depth = 0;
  // Every container and every element or member after the first: at least the number of values.
  let values = 0;
  let lastString = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === quote) {
      const end = stringEnd(text, i);
      if (end < 0) return null;
      // Only a key is ever named, and keys are short: a long string is never copied.
      lastString = end - i <= 256 ? text.slice(i + 1, end) : '';
      i = end;
      continue;
    }
    if (code === openObject || code === openArray) {
      depth += 1;
      values += 1;
      if (depth > limits.maxDepth) return { problem: 'depth', limit: limits.maxDepth, path: path.path() };
      if (values > limits.maxValues) return { problem: 'values', limit: limits.maxValues, path: path.path() };
      path.open(code === openArray);
    } else if (code === closeObject || code === closeArray) {
      path.close();
      depth -= 1;
    } else if (code === colon) {
      path.key(lastString);
    } else if (code === comma) {
      path.next();
      values += 1;
      if (values > limits.maxValues) return { problem: 'values', limit: limits.maxValues, path: path.path() };
    }
  }
  return null;
};
