import type { CreditNoteData, InvoiceData } from '../events/invoicing/documents.ts';
import type { LabelData } from '../labels/label-data.ts';

/**
 * A document a PDF worker renders: its data only, plain and structured-cloneable, since a document
 * definition holds functions (page footers) that cannot cross to a worker thread. The worker builds
 * the definition from the data with the same layout code as ever.
 */
export type PdfJob = { kind: 'label'; data: LabelData } | { kind: 'invoice'; data: InvoiceData } | { kind: 'credit-note'; data: CreditNoteData };

/**
 * Who waits for the document: a person (an invoice asked for, a label fetched by a supplier) is served
 * before the labels rendered in the background after imports.
 */
export type PdfPriority = 'person' | 'background';
