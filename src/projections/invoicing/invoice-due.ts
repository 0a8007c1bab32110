import type { Tracked } from '../projection.ts';

/**
 * `invoices_due`: when each business customer's sale gets its invoice, one document per such sale (a
 * consumer's is issued when asked for, and has none). The service issues a business customer's on its
 * own (the 2026 reform wants an e-invoice for each): `awaiting` until it is invoiced, due from `dueAt`
 * on, the instant its last open line was shipped or cancelled, or at the latest
 * `businessInvoiceDeadlineDays` after it was recorded. Read by jobs/business-invoices.ts on
 * `{ state, dueAt }`, never by a scan of the sales.
 */

export const invoicesDueCollection = 'invoices_due';

/** At the latest, a business sale is invoiced this many days after it was recorded, lines still open or not. */
export const businessInvoiceDeadlineDays = 30;

export type InvoiceDue = Tracked & {
  _id: number;
  /**
   * `awaiting` its invoice; `invoiced` (by the job, or on request before); `nothing-to-invoice`: every
   * line cancelled and no shipping fee kept, nothing was sold.
   */
  state: 'awaiting' | 'invoiced' | 'nothing-to-invoice';
  /** The day in France the sale was recorded, for PLATFORM_FROM. */
  date: string;
  /** When the sale's invoice is due (UTC, ISO 8601). */
  dueAt: string;
  /** Its lines neither shipped nor cancelled yet. */
  openLines: number[];
  /** Whether a line was shipped, or a shipping fee kept: what makes a settled sale worth an invoice. */
  sold: boolean;
};
