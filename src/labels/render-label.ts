import bwipjs from 'bwip-js';
import { renderPdf } from '../pdf/render-pdf.ts';
import { labelDigest, type LabelData } from './label-data.ts';
import { labelDocument } from './label-document.ts';

/** The tracking number as a Code 128 barcode, in SVG; the quiet zones left and right are part of it. */
export const code128Svg = (text: string): string => bwipjs.toSVG({ bcid: 'code128', text, height: 15, paddingwidth: 10, includetext: false });

/**
 * The label's PDF: about 20 kB and some 15 milliseconds of CPU in a PDF worker (laying out the text
 * and subsetting the font it uses; the font is parsed and each word shaped once per worker,
 * fontkit-caches.ts).
 */
export const renderLabelPdf = async (data: LabelData): Promise<Buffer> => renderPdf(labelDocument(data, code128Svg(data.trackingNumber), labelDigest(data)));
