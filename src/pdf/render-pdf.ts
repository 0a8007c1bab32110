import { createRequire } from 'node:module';
import path from 'node:path';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';

// The Roboto fonts pdfmake ships: the euro sign, accents and a wide Unicode coverage for customers'
// names, nothing fetched from the network.
const require = createRequire(import.meta.url);
const fonts = require('pdfmake/fonts/Roboto.js') as TFontDictionary;
const fontFiles = new Set(Object.values(fonts).flatMap((font) => Object.values(font).map((file) => path.resolve(String(file)))));

type Pdfmake = typeof import('pdfmake');

/** pdfmake and its PDF engine, loaded on the first document: a tenth of the service's start-up otherwise. */
let loading: Promise<Pdfmake> | undefined;

/** A document's PDF, with the Roboto fonts; it reads the font files and nothing else, and fetches no URL. */
export const renderPdf = async (definition: TDocumentDefinitions): Promise<Buffer> => {
  // A CommonJS module: its exports are the namespace's default.
  const pdfmake = await (loading ??= import('pdfmake').then((module) => (module as unknown as { default: Pdfmake }).default));
  // pdfmake's server API is one shared instance: its fonts and access policies are set right before
  // each document, in the same tick as createPdf, which hands them to the document it starts.
  pdfmake.setFonts(fonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((file) => fontFiles.has(path.resolve(file)));
  return pdfmake.createPdf(definition).getBuffer();
};
