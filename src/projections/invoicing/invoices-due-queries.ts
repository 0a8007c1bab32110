import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { invoicesDueCollection, type InvoiceDue } from './invoice-due.ts';

/** The business sales whose invoice is due at `now`, of `from` on (all when null), due longest first. */
export const dueBusinessInvoices = (store: ReadStore, from: string | null, now: string, limit: number): Promise<InvoiceDue[]> =>
  store
    .collection<InvoiceDue>(invoicesDueCollection)
    .find({ state: 'awaiting', dueAt: { $lte: now }, ...(from ? { date: { $gte: from } } : {}) } as Filter<InvoiceDue>, {
      sort: { dueAt: 1, _id: 1 },
      limit,
    })
    .toArray();

export const invoiceDueOf = (store: ReadStore, saleId: number): Promise<InvoiceDue | null> =>
  store.collection<InvoiceDue>(invoicesDueCollection).findOne({ _id: saleId });
