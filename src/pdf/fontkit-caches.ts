// What pdfkit would redo for every document and a PDF worker does once: parse each TrueType font, and
// shape each word. Both reach into fontkit, pdfkit's font engine (its module swapped in the module
// cache, the private glyph cache of its fonts), and both leave a document's bytes exactly what a fresh
// worker renders (test/pdf/render-history.test.ts).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

type Fontkit = { create: (font: Uint8Array, postscriptName?: string) => unknown };
type Glyph = { id: number; codePoints: number[] };
type GlyphPosition = { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number };
type GlyphRun = { glyphs: Glyph[]; positions: GlyphPosition[] };

/** A run as pdfkit reads fontkit's: glyphs, positions, and their advance width (pdfkit sums the words'). */
class ShapedRun implements GlyphRun {
  constructor(
    readonly glyphs: Glyph[],
    readonly positions: GlyphPosition[],
  ) {}

  get advanceWidth(): number {
    return this.positions.reduce((width, position) => width + position.xAdvance, 0);
  }
}

type ParsedFont = {
  _glyphs?: Record<number, Glyph>;
  layout: (text: string, ...options: unknown[]) => GlyphRun;
  getGlyph: (id: number, codePoints: number[]) => Glyph;
};

/** A word as its font's shaping left it: each glyph's id and the characters it stands for, positions. */
type ShapedWord = { glyphs: Glyph[]; positions: GlyphPosition[] };

// Distinct words kept per font (under a kilobyte each: a few MiB at most); past it the thread starts
// over. An invoice or a label has a few hundred, most of them the same from one document to the next.
const maxShapedWords = 5_000;

/**
 * pdfkit shapes every word again for every document (fontkit's OpenType substitution and positioning:
 * a fifth of an invoice's CPU time in a profile), keeping what it shaped for the document only. A
 * word's shaping depends on the word and the font alone, so the thread keeps it from one document to
 * the next: the glyph ids, each glyph's characters as shaping the word on its own gives them, and the
 * positions. The glyphs handed back are the document's own (`getGlyph`: a glyph already made in this document is
 * that one, as shaping would find it; a new one gets the word's characters), and the positions are
 * fresh copies, since pdfkit scales them in place. Shaping with options (OpenType features, a script)
 * is not kept.
 */
const shapeEachWordOnce = (font: ParsedFont): void => {
  const layout = font.layout.bind(font);
  const shaped = new Map<string, ShapedWord>();
  const shape = (text: string): ShapedWord => {
    const documentGlyphs = font._glyphs;
    font._glyphs = {}; // the word's glyphs made afresh: their characters are the word's own
    try {
      const run = layout(text);
      const positions = run.positions.map(({ xAdvance, yAdvance, xOffset, yOffset }) => ({ xAdvance, yAdvance, xOffset, yOffset }));
      return { glyphs: run.glyphs.map(({ id, codePoints }) => ({ id, codePoints: [...codePoints] })), positions };
    } finally {
      font._glyphs = documentGlyphs;
    }
  };
  font.layout = (text, ...options) => {
    if (typeof text !== 'string' || options.some((option) => option !== undefined)) return layout(text, ...options);
    let word = shaped.get(text);
    if (!word) {
      if (shaped.size >= maxShapedWords) shaped.clear();
      shaped.set(text, (word = shape(text)));
    }
    return new ShapedRun(
      word.glyphs.map(({ id, codePoints }) => font.getGlyph(id, codePoints)),
      word.positions.map((position) => ({ ...position })),
    );
  };
};

/**
 * pdfkit parses a TrueType font again for every document (fontkit.create on the font's bytes: about
 * two thirds of a label's CPU time). The thread keeps one parsed font per font file instead: pdfkit's
 * `fontkit` is replaced in the module cache, before pdfkit is loaded, by the same module whose `create` remembers what it parsed for each buffer (pdfmake hands pdfkit the same
 * in-memory buffer for every document). A parsed font's tables are only read; its glyph cache is not
 * history-free (a glyph keeps the characters it was first made for, which pdfkit writes into the text
 * layer), so each document starts with an empty glyph cache, as a freshly parsed font has: the bytes of
 * a document do not depend on what the thread rendered before. Its words are shaped once (above).
 */
export const parseFontsOnce = (): void => {
  const pdfkitPath = require.resolve('pdfkit');
  if (require.cache[pdfkitPath]) return; // pdfkit already loaded: it keeps the module it has
  const fontkitPath = require.resolve('fontkit', { paths: [dirname(pdfkitPath)] });
  const fontkit = require(fontkitPath) as Fontkit;
  const parsed = new WeakMap<Uint8Array, ParsedFont>();
  const create: Fontkit['create'] = (font, postscriptName) => {
    const known = postscriptName === undefined ? parsed.get(font) : undefined;
    if (known) {
      known._glyphs = {};
      return known;
    }
    const parsedFont = fontkit.create(font, postscriptName) as ParsedFont;
    // Kept only when its glyph cache is where this fontkit version keeps it (else parsed each time).
    if (postscriptName === undefined && typeof parsedFont._glyphs === 'object') {
      shapeEachWordOnce(parsedFont);
      parsed.set(font, parsedFont);
    }
    return parsedFont;
  };
  require.cache[fontkitPath]!.exports = { ...fontkit, create };
};

/**
 * The characters each of the fonts has a glyph for (read from their character maps), parsed as pdfkit
 * parses them: call it once the fonts are parsed once (parseFontsOnce), before a document.
 */
export const charactersOfEvery = (fonts: readonly Uint8Array[]): Set<number> => {
  const fontkit = require(require.resolve('fontkit', { paths: [dirname(require.resolve('pdfkit'))] })) as Fontkit;
  const sets = fonts.map((font) => new Set((fontkit.create(font) as { characterSet: number[] }).characterSet));
  return new Set([...(sets[0] ?? [])].filter((codePoint) => sets.every((set) => set.has(codePoint))));
};
