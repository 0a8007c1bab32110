import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant, positiveId } from '../schema/common-schemas.ts';
import { issuedCreditNote, issuedInvoice } from './documents.ts';
import { addressFields, type PersonalDataRule } from '../schema/personal-data.ts';
import { saleStreamName } from '../sales/events.ts';

/**
 * The registers of invoices and credit notes: one stream per kind and calendar year, `invoices-<year>`
 * and `credit_notes-<year>`, in which the event of revision r issues the document numbered r + 1.
 * Issuing a document is appending its event with the expected revision, so the number is allocated
 * and recorded in one all-or-nothing write: the sequence has no gap and no duplicate, whatever
 * crashes or races (see issuing-register.ts).
 */

const year = z.number().int().min(2000).max(9999);

/**
 * A document of record copies the customer's name, e-mail, phone and addresses, and the name of the
 * company they bought for: sealed with the key of the sale's customer, so that an erasure reaches the
 * copies too (the amounts, lines and numbers stay, which is what the ten-year retention of invoices is
 * for, and so do the company's SIREN, SIRET and VAT number: see SaleImported).
 */
const documentPersonalData = (document: 'invoice' | 'creditNote', addresses: readonly string[]): PersonalDataRule => ({
  fields: [
    ...['firstname', 'lastname', 'email', 'phone'].map((field) => `${document}.customer.${field}`),
    `${document}.businessCustomer.companyName`,
    ...addresses.flatMap((name) => addressFields(`${document}.${name}`)),
  ],
  subject: (data) => ({ stream: saleStreamName(String((data[document] as { incrementId: string }).incrementId)) }),
});

export const invoicePersonalData = documentPersonalData('invoice', ['billingAddress', 'shippingAddress']);
export const creditNotePersonalData = documentPersonalData('creditNote', ['billingAddress', 'shippingAddress']);

export const InvoiceIssued = defineEvent(
  'InvoiceIssued',
  z.object({ number: issuedInvoice.shape.number, year, sequence: positiveId, saleId: positiveId, issuedAt: instant, invoice: issuedInvoice }),
  { personal: invoicePersonalData },
);

export const CreditNoteIssued = defineEvent(
  'CreditNoteIssued',
  z.object({
    number: issuedCreditNote.shape.number,
    year,
    sequence: positiveId,
    saleId: positiveId,
    invoiceNumber: issuedInvoice.shape.number,
    /** The sale products it credits: each one is credited once at most. */
    saleProductIds: z.array(positiveId).min(1),
    issuedAt: instant,
    creditNote: issuedCreditNote,
  }),
  { personal: creditNotePersonalData },
);

export const invoicingEventDefinitions = [InvoiceIssued, CreditNoteIssued] as const;
export type InvoicingEvent = EventsOf<typeof invoicingEventDefinitions>;

export type DocumentKind = 'invoice' | 'credit-note';

export const registers = {
  invoice: { prefix: 'FA', stream: 'invoices', eventType: 'InvoiceIssued' },
  'credit-note': { prefix: 'AV', stream: 'credit_notes', eventType: 'CreditNoteIssued' },
} as const satisfies Record<DocumentKind, { prefix: string; stream: string; eventType: InvoicingEvent['type'] }>;

export const registerStreamName = (kind: DocumentKind, year: number): string => `${registers[kind].stream}-${year}`;

/** `FA-2026-1`, `AV-2026-1`: the prefix, the year of issue, the rank in that year's register. */
export const documentNumber = (kind: DocumentKind, year: number, sequence: number): string => `${registers[kind].prefix}-${year}-${sequence}`;
