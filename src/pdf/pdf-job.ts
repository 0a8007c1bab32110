/**
 * Who waits for the document: a person (an invoice asked for, a label fetched by a supplier) is served
 * before the labels rendered in the background after imports.
 */
export type PdfPriority = 'person' | 'background';
