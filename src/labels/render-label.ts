import bwipjs from 'bwip-js';
import { renderPdf } from '../pdf/render-pdf.ts';
import { labelDigest, type LabelData } from './label-data.ts';
import { labelDocument } from './label-document.ts';

/** The tracking number as a Code 128 barcode, in SVG; the quiet zones left and right are part of it. */
export const code128Svg = (text: string): string => bwipjs.toSVG({ bcid: 'code128', text, height: 15, paddingwidth: 10, includetext: false });

/**
 * The label's PDF: about 20 kB and some tens of milliseconds of CPU (parsing and embedding the font
 * is most of it), hence made on demand rather than for every order up front.
 */
export const renderLabelPdf = async (data: LabelData): Promise<Buffer> => renderPdf(labelDocument(data, code128Svg(data.trackingNumber), labelDigest(data)));
