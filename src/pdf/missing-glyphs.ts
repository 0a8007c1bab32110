import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';

/**
 * A character the embedded font has no glyph for (an emoji, a control character pasted into a
 * customer's name) renders as the font's .notdef glyph, which PDF/A forbids showing: an archived
 * document prints such a character as the replacement character, U+FFFD, which the font has. Line
 * breaks stay: pdfmake breaks lines on them before they reach the font.
 */

const replacement = '\uFFFD';

const replaceMissing = (text: string, hasGlyph: (codePoint: number) => boolean): string => {
  let replaced = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    replaced += char === '\n' || hasGlyph(codePoint) ? char : replacement;
  }
  return replaced;
};

/**
 * Every string of the definition checked: its texts, and the names of styles, fonts, colours and
 * layouts too, which are ASCII and so left as they are. Functions (a page footer) are checked on what
 * they return; dates and bytes are kept.
 */
const checked = (value: unknown, hasGlyph: (codePoint: number) => boolean): unknown => {
  if (typeof value === 'string') return replaceMissing(value, hasGlyph);
  if (Array.isArray(value)) return value.map((item) => checked(item, hasGlyph));
  if (typeof value === 'function') return (...args: unknown[]) => checked((value as (...args: unknown[]) => unknown)(...args), hasGlyph);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, checked(item, hasGlyph)]));
  }
  return value;
};

export const withoutMissingGlyphs = (definition: TDocumentDefinitions, hasGlyph: (codePoint: number) => boolean): TDocumentDefinitions =>
  checked(definition, hasGlyph) as TDocumentDefinitions;
