import type { Tracked } from '../projection.ts';

/**
 * `invoices_due`: how each sale gets its invoice, one document per sale. A consumer's is issued when
 * asked for (`on-request`). A business customer's the service issues on its own (the 2026 reform wants
 * an e-invoice for each): `awaiting` until it is invoiced, due from `dueAt` on, the instant its last
 * open line was shipped or cancelled, or at the latest `businessInvoiceDeadlineDays` after it was
 * recorded. Read by jobs/business-invoices.ts on `{ state, dueAt }`, never by a scan of the sales.
 * Every sale has its document, so that each event the projection reads changes one: its checkpoint
 * then moves with every batch, which the other instances' read-your-writes waits follow.
 */

export const invoicesDueCollection = 'invoices_due';

/** At the latest, a business sale is invoiced this many days after it was recorded, lines still open or not. */
export const businessInvoiceDeadlineDays = 30;

export type InvoiceDue = Tracked & {
  _id: number;
  /**
   * `on-request`: a consumer's sale, invoiced when asked; `awaiting` its invoice (a business customer's);
   * `invoiced` (by the job, or on request before); `nothing-to-invoice`: a business sale with every line
   * cancelled and no shipping fee kept, nothing was sold.
   */
  state: 'on-request' | 'awaiting' | 'invoiced' | 'nothing-to-invoice';
  /** The day in France the sale was recorded, for PLATFORM_FROM. */
  date: string;
  /** When a business sale's invoice is due (UTC, ISO 8601); for a consumer's, its deadline as if it were one. */
  dueAt: string;
  /** Its lines neither shipped nor cancelled yet. */
  openLines: number[];
  /** Whether a line was shipped, or a shipping fee kept: what makes a settled sale worth an invoice. */
  sold: boolean;
};
