import { createRequire } from 'node:module';
import path from 'node:path';
import pdfmake from 'pdfmake';
import type { TFontDictionary } from 'pdfmake/interfaces.js';
import type { InvoiceData } from './invoice-data.ts';
import { invoiceDocument } from './invoice-document.ts';

// The Roboto fonts pdfmake ships, as the shipping labels use: euro sign and accents, nothing fetched from the network.
const require = createRequire(import.meta.url);
const fonts = require('pdfmake/fonts/Roboto.js') as TFontDictionary;
const fontFiles = new Set(Object.values(fonts).flatMap((font) => Object.values(font).map((file) => path.resolve(String(file)))));

/**
 * The invoice's PDF. Rendered on each request (tens of milliseconds, mostly the font): nothing is
 * stored, and the bytes depend only on the invoice's data, so a cache can be put in front later.
 */
export const renderInvoicePdf = async (invoice: InvoiceData): Promise<Buffer> => {
  const definition = invoiceDocument(invoice);
  // pdfmake's server API is one shared instance: fonts and access policies are set in the same tick
  // as createPdf, which hands them to the document it starts. An invoice reads the font files only.
  pdfmake.setFonts(fonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((file) => fontFiles.has(path.resolve(file)));
  return pdfmake.createPdf(definition).getBuffer();
};
