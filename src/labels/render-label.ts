import { createRequire } from 'node:module';
import path from 'node:path';
import bwipjs from 'bwip-js';
import pdfmake from 'pdfmake';
import type { TFontDictionary } from 'pdfmake/interfaces.js';
import { labelDigest, type LabelData } from './label-data.ts';
import { labelDocument } from './label-document.ts';

// The Roboto fonts pdfmake ships: wide Unicode coverage for customers' names, nothing fetched from the network.
const require = createRequire(import.meta.url);
const fonts = require('pdfmake/fonts/Roboto.js') as TFontDictionary;
const fontFiles = new Set(Object.values(fonts).flatMap((font) => Object.values(font).map((file) => path.resolve(String(file)))));

/** The tracking number as a Code 128 barcode, in SVG; the quiet zones left and right are part of it. */
export const code128Svg = (text: string): string =>
  bwipjs.toSVG({ bcid: 'code128', text, height: 15, paddingwidth: 10, includetext: false });

/**
 * The label's PDF: about 20 kB and some tens of milliseconds of CPU (parsing and embedding the font
 * is most of it), hence made on demand rather than for every order up front.
 */
export const renderLabelPdf = async (data: LabelData): Promise<Buffer> => {
  const definition = labelDocument(data, code128Svg(data.trackingNumber), labelDigest(data));
  // pdfmake's server API is one shared instance: its fonts and access policies are set right before
  // each document, in the same tick as createPdf, which hands them to the document it starts. A label
  // reads the font files and nothing else, and fetches no URL.
  pdfmake.setFonts(fonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((file) => fontFiles.has(path.resolve(file)));
  return pdfmake.createPdf(definition).getBuffer();
};
