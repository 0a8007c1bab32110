/**
 * The canonical JSON (canonical-json.ts) of a value given as its JSON text, without parsing it into
 * objects: how a tree built from the log makes each event's leaf from the data and metadata as the
 * store keeps them (leaf.ts). A text that JSON.stringify wrote is canonical but for the order of its
 * keys, so its objects are put in key order as slices of the text, and the rest is kept as it is.
 *
 * Whatever this cannot vouch for, byte for byte, answers undefined, and the caller parses the text and
 * writes it with canonicalJson: white space; an escape JSON.stringify does not write (`\/`, any `\u`)
 * or a lone surrogate; a number not as JSON.stringify writes it (`1.0`, `1e3`, `-0`); a key with an
 * escape (its order in the text may not be its order decoded), a duplicate key or `__proto__`; nesting deeper than 64; text that is not JSON.
 */
export const canonicalJsonOfText = (json: string): string | undefined => {
  text = json;
  at = 0;
  plain = !unplain.test(json);
  try {
    const canonical = value(0);
    return at === text.length ? (canonical ?? text) : undefined;
  } catch (error) {
    if (error === notVouchedFor) return undefined;
    throw error;
  } finally {
    text = '';
  }
};

// The text being read and where: one text at a time, read synchronously.
let text = '';
let at = 0;
// Whether the text has no escape, no control character and no lone surrogate: each string then ends
// at the next quote, as it is. (Unicode's control characters are those below 0x20, which JSON.stringify
// escapes, and 0x7f to 0x9f, which it does not: a text with one of those is read character by character.)
let plain = false;
const unplain = /[\\\p{Cc}\p{Cs}]/u;

const notVouchedFor = Symbol('not vouched for');

const MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

const isDigit = (code: number): boolean => code >= ZERO && code <= NINE;

/**
 * Reads the value at `at`, leaving `at` after it; answers its canonical text when it differs from the
 * text read, null when the text read is canonical already.
 */
const value = (depth: number): string | null => {
  if (depth > MAX_DEPTH) throw notVouchedFor;
  switch (text.charCodeAt(at)) {
    case 0x7b: // {
      return object(depth);
    case 0x5b: // [
      return array(depth);
    case QUOTE:
      string(false);
      return null;
    case 0x74: // t
      return literal('true');
    case 0x66: // f
      return literal('false');
    case 0x6e: // n
      return literal('null');
    default:
      return number();
  }
};

const literal = (word: string): null => {
  if (!text.startsWith(word, at)) throw notVouchedFor;
  at += word.length;
  return null;
};

/** Escapes JSON.stringify writes with a letter: \" \\ \b \f \n \r \t (any other character below 0x20 it writes \u00xx). */
const isShortEscape = (code: number): boolean =>
  code === QUOTE || code === BACKSLASH || code === 0x62 || code === 0x66 || code === 0x6e || code === 0x72 || code === 0x74;

/** Reads a string as JSON.stringify writes it; a key must have no escape at all. */
const string = (isKey: boolean): void => {
  if (plain) {
    const end = text.indexOf('"', at + 1);
    if (end < 0) throw notVouchedFor;
    at = end + 1;
    return;
  }
  const json = text;
  const end = json.length;
  let i = at + 1;
  for (;;) {
    if (i >= end) throw notVouchedFor;
    const code = json.charCodeAt(i);
    if (code === QUOTE) break;
    if (code === BACKSLASH) {
      if (isKey || !isShortEscape(json.charCodeAt(i + 1))) throw notVouchedFor;
      i += 2;
    } else if (code < 0x20) {
      throw notVouchedFor;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      // A surrogate pair is written as it is; a lone surrogate JSON.stringify escapes.
      const next = json.charCodeAt(i + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) throw notVouchedFor;
      i += 2;
    } else {
      i += 1;
    }
  }
  at = i + 1;
};

/** Reads a number, which must be written as JSON.stringify writes the value it reads as. */
const number = (): null => {
  const start = at;
  let i = at;
  const negative = text.charCodeAt(i) === MINUS;
  if (negative) i += 1;
  const first = i;
  while (isDigit(text.charCodeAt(i))) i += 1;
  const digits = i - first;
  const next = text.charCodeAt(i);
  const fraction = next === 0x2e || next === 0x65 || next === 0x45; // . e E
  // Most numbers of the log: an integer of at most 15 digits, exact as a double, without a leading zero or a "-0".
  if (!fraction && digits > 0 && digits <= 15 && (text.charCodeAt(first) !== ZERO || (digits === 1 && !negative))) {
    at = i;
    return null;
  }
  while (
    isDigit(text.charCodeAt(i)) ||
    text.charCodeAt(i) === 0x2e ||
    text.charCodeAt(i) === 0x65 ||
    text.charCodeAt(i) === 0x45 ||
    text.charCodeAt(i) === 0x2b ||
    text.charCodeAt(i) === MINUS
  ) {
    i += 1;
  }
  // The text of a finite number as JSON.stringify writes it is valid JSON, which JSON.parse reads as Number does.
  const written = text.slice(start, i);
  if (String(Number(written)) !== written) throw notVouchedFor;
  at = i;
  return null;
};

const array = (depth: number): string | null => {
  const start = at;
  at += 1;
  if (text.charCodeAt(at) === 0x5d) {
    at += 1;
    return null;
  }
  let items: string[] | undefined;
  let itemCount = 0;
  for (;;) {
    const itemStart = at;
    const item = value(depth + 1);
    if (item !== null && items === undefined) {
      // The first item that changes: those before it are kept as read.
      items = itemCount === 0 ? [] : [text.slice(start + 1, itemStart - 1)];
    }
    if (items !== undefined) items.push(item ?? text.slice(itemStart, at));
    itemCount += 1;
    const next = text.charCodeAt(at);
    at += 1;
    if (next === 0x5d) break;
    if (next !== COMMA) throw notVouchedFor;
  }
  return items === undefined ? null : `[${items.join(',')}]`;
};

/** Sorts the members by key (a few each: insertion); a duplicate key is not vouched for. */
const sortByKey = (keys: string[], members: string[]): void => {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    const member = members[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) {
      keys[j + 1] = keys[j]!;
      members[j + 1] = members[j]!;
    }
    if (j >= 0 && keys[j] === key) throw notVouchedFor;
    keys[j + 1] = key;
    members[j + 1] = member;
  }
};

const object = (depth: number): string | null => {
  at += 1;
  if (text.charCodeAt(at) === 0x7d) {
    at += 1;
    return null;
  }
  const keys: string[] = [];
  const members: string[] = [];
  let inOrder = true;
  let changed = false;
  for (;;) {
    const memberStart = at;
    if (text.charCodeAt(at) !== QUOTE) throw notVouchedFor;
    string(true);
    const key = text.slice(memberStart + 1, at - 1);
    if (key === '__proto__') throw notVouchedFor;
    if (text.charCodeAt(at) !== COLON) throw notVouchedFor;
    at += 1;
    const valueStart = at;
    const item = value(depth + 1);
    if (item !== null) changed = true;
    if (keys.length > 0 && !(keys[keys.length - 1]! < key)) inOrder = false;
    keys.push(key);
    members.push(item === null ? text.slice(memberStart, at) : `${text.slice(memberStart, valueStart)}${item}`);
    const next = text.charCodeAt(at);
    at += 1;
    if (next === 0x7d) break;
    if (next !== COMMA) throw notVouchedFor;
  }
  if (inOrder && !changed) return null;
  if (!inOrder) sortByKey(keys, members);
  // Joined as a rope: the leaf's text is made flat once, when it is hashed.
  let canonical = `{${members[0]!}`;
  for (let i = 1; i < members.length; i++) canonical += `,${members[i]!}`;
  return `${canonical}}`;
};
