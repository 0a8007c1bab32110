import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';
import { charactersOfEvery, parseFontsOnce } from './fontkit-caches.ts';
import { withoutMissingGlyphs } from './missing-glyphs.ts';

// The Roboto fonts pdfmake ships: the euro sign, accents and a wide Unicode coverage for customers'
// names, nothing fetched from the network.
const require = createRequire(import.meta.url);
const robotoFiles = require('pdfmake/fonts/Roboto.js') as TFontDictionary;

type Pdfmake = typeof import('pdfmake') & { virtualfs: { writeFileSync: (name: string, content: Buffer) => void } };

/** pdfmake set up, and the characters every style of its font has a glyph for. */
type Renderer = { pdfmake: Pdfmake; hasGlyph: (codePoint: number) => boolean };

/**
 * pdfmake with the fonts read once into its in-memory file system: a document then reads no file at
 * all, and every local or remote access is refused. pdfmake's server API is one shared instance per
 * thread (each PDF worker has its own); it is set up on the first document, not at import, since
 * loading it is a tenth of a start-up.
 */
const setUp = async (): Promise<Renderer> => {
  parseFontsOnce();
  // A CommonJS module: its exports are the namespace's default.
  const pdfmake = ((await import('pdfmake')) as unknown as { default: Pdfmake }).default;
  const fonts: TFontDictionary = {};
  const buffers: Buffer[] = [];
  for (const [family, styles] of Object.entries(robotoFiles)) {
    const inMemory: Record<string, string> = {};
    for (const [style, file] of Object.entries(styles)) {
      const name = `fonts/${family}-${style}.ttf`;
      const buffer = readFileSync(String(file));
      pdfmake.virtualfs.writeFileSync(name, buffer);
      buffers.push(buffer);
      inMemory[style] = name;
    }
    fonts[family] = inMemory as TFontDictionary[string];
  }
  pdfmake.setFonts(fonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  const characters = charactersOfEvery(buffers);
  return { pdfmake, hasGlyph: (codePoint) => characters.has(codePoint) };
};

let loading: Promise<Renderer> | undefined;

/** A file the PDF carries as an associated file (PDF/A-3): the data the page is a rendering of. */
export type AssociatedFile = {
  name: string;
  mimeType: string;
  description: string;
  /** How the file relates to the document (PDF 2.0's AFRelationship). */
  relationship: 'Alternative' | 'Data' | 'Source' | 'Supplement';
  content: Buffer;
  /** Its date: the document's own, so that the PDF still renders to the same bytes. */
  modifiedAt: Date;
};

/** A PDF/A-3b document: the file it carries, and the XMP descriptions (rdf:Description elements) that name it. */
export type PdfA3 = { file: AssociatedFile; xmp: string };

type PdfKitDocument = PDFKit.PDFDocument & { info: Record<string, unknown>; _addInfo: () => void };

const escapeXml = (text: string): string => text.replace(/[&<>]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[char] ?? char);

/**
 * pdfkit copies the Info dictionary's strings into the XMP as they are: a seller named with an `&`
 * would make the metadata ill-formed XML, which PDF/A refuses. The copy is made from escaped strings;
 * the Info dictionary, written before it, keeps the real ones.
 */
const escapeInfoInXmp = (doc: PdfKitDocument): void => {
  const addInfo = doc._addInfo.bind(doc);
  doc._addInfo = () => {
    const info = doc.info;
    doc.info = Object.fromEntries(Object.entries(info).map(([key, value]) => [key, typeof value === 'string' ? escapeXml(value) : value]));
    addInfo();
    doc.info = info;
  };
};

const pdfA3 = async ({ pdfmake, hasGlyph }: Renderer, definition: TDocumentDefinitions, { file, xmp }: PdfA3): Promise<Buffer> => {
  // PDF/A-3 is built on PDF 1.7; pdfmake's default, 1.3, has no XMP metadata at all.
  const output = pdfmake.createPdf({ ...withoutMissingGlyphs(definition, hasGlyph), version: '1.7', subset: 'PDF/A-3b' });
  const doc = (await output.getStream()) as PdfKitDocument;
  escapeInfoInXmp(doc);
  const attachment: PDFKit.Mixins.PDFAttachmentOptions & { relationship: AssociatedFile['relationship'] } = {
    name: file.name,
    type: file.mimeType,
    description: file.description,
    relationship: file.relationship,
    creationDate: file.modifiedAt,
    modifiedDate: file.modifiedAt,
  };
  doc.file(file.content, attachment);
  doc.appendXML(xmp);
  return output.getBuffer();
};

/**
 * A document's PDF, with the Roboto fonts; it reads no file (the fonts are in memory) and fetches no URL.
 * Given a file to carry, a PDF/A-3b that carries it.
 */
export const renderPdf = async (definition: TDocumentDefinitions, archive?: PdfA3): Promise<Buffer> => {
  const renderer = await (loading ??= setUp());
  return archive === undefined ? renderer.pdfmake.createPdf(definition).getBuffer() : pdfA3(renderer, definition, archive);
};
