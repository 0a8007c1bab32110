import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';

// The Roboto fonts pdfmake ships: the euro sign, accents and a wide Unicode coverage for customers'
// names, nothing fetched from the network.
const require = createRequire(import.meta.url);
const robotoFiles = require('pdfmake/fonts/Roboto.js') as TFontDictionary;

type Fontkit = { create: (font: Uint8Array, postscriptName?: string) => unknown };
type ParsedFont = { _glyphs?: Record<number, unknown> };

/**
 * pdfkit parses a TrueType font again for every document (fontkit.create on the font's bytes: about
 * two thirds of a label's CPU time). The thread keeps one parsed font per font
 * file instead: pdfkit's `fontkit` is replaced in the module cache, before pdfkit is loaded, by the same
 * module whose `create` remembers what it parsed for each buffer (pdfmake hands pdfkit the same
 * in-memory buffer for every document). A parsed font's tables are only read; its glyph cache is not
 * history-free (a glyph keeps the characters it was first made for, which pdfkit writes into the text
 * layer), so each document starts with an empty glyph cache, as a freshly parsed font has: the bytes of
 * a document do not depend on what the thread rendered before.
 */
const parseFontsOnce = (): void => {
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
    if (postscriptName === undefined && typeof parsedFont._glyphs === 'object') parsed.set(font, parsedFont);
    return parsedFont;
  };
  require.cache[fontkitPath]!.exports = { ...fontkit, create };
};

type Pdfmake = typeof import('pdfmake') & { virtualfs: { writeFileSync: (name: string, content: Buffer) => void } };

/**
 * pdfmake with the fonts read once into its in-memory file system: a document then reads no file at
 * all, and every local or remote access is refused. pdfmake's server API is one shared instance per
 * thread (each PDF worker has its own); it is set up on the first document, not at import, since
 * loading it is a tenth of a start-up.
 */
const setUp = async (): Promise<Pdfmake> => {
  parseFontsOnce();
  // A CommonJS module: its exports are the namespace's default.
  const pdfmake = ((await import('pdfmake')) as unknown as { default: Pdfmake }).default;
  const fonts: TFontDictionary = {};
  for (const [family, styles] of Object.entries(robotoFiles)) {
    const inMemory: Record<string, string> = {};
    for (const [style, file] of Object.entries(styles)) {
      const name = `fonts/${family}-${style}.ttf`;
      pdfmake.virtualfs.writeFileSync(name, readFileSync(String(file)));
      inMemory[style] = name;
    }
    fonts[family] = inMemory as TFontDictionary[string];
  }
  pdfmake.setFonts(fonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  return pdfmake;
};

let loading: Promise<Pdfmake> | undefined;

/** A document's PDF, with the Roboto fonts; it reads no file (the fonts are in memory) and fetches no URL. */
export const renderPdf = async (definition: TDocumentDefinitions): Promise<Buffer> => {
  const pdfmake = await (loading ??= setUp());
  return pdfmake.createPdf(definition).getBuffer();
};
