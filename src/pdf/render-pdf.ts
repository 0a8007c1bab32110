import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';
import { parseFontsOnce } from './fontkit-caches.ts';

// The Roboto fonts pdfmake ships: the euro sign, accents and a wide Unicode coverage for customers'
// names, nothing fetched from the network.
const require = createRequire(import.meta.url);
const robotoFiles = require('pdfmake/fonts/Roboto.js') as TFontDictionary;

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
