import { assertNever } from '../../events/decider.ts';
import { administrationDay } from '../../events/e-invoicing/administration-day.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { evolveOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { businessInvoiceDeadlineDays, invoicesDueCollection, type InvoiceDue } from './invoice-due.ts';

const eventTypes = ['SaleImported', 'SaleProductShipped', 'SaleProductCancelled', 'InvoiceIssued'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
type Fields = Omit<InvoiceDue, '_id' | '_position'>;

const dayMs = 86_400_000;
const utc = (instant: string): string => new Date(Date.parse(instant)).toISOString();

/** A line shipped or cancelled: once none is open, a business sale's invoice is due then, unless nothing was sold. */
const settled = (current: InvoiceDue | null, saleProductId: number, at: string, shipped: boolean): Fields | null => {
  if (!current || !current.openLines.includes(saleProductId)) return null;
  const openLines = current.openLines.filter((id) => id !== saleProductId);
  const sold = current.sold || shipped;
  if (openLines.length > 0 || current.state !== 'awaiting') return { ...current, openLines, sold };
  if (!sold) return { ...current, openLines, sold, state: 'nothing-to-invoice' };
  const settledAt = utc(at);
  return { ...current, openLines, sold, dueAt: settledAt < current.dueAt ? settledAt : current.dueAt };
};

/**
 * When each business customer's sale gets its invoice (invoice-due.ts): awaited from its import, due
 * once it is settled or at its deadline, invoiced when its InvoiceIssued is recorded, whoever asked
 * for it. The events of consumers' sales change nothing here.
 */
export const invoicesDueProjection: Projection = {
  name: 'invoices-due',
  version: 1,
  eventTypes,
  collections: [invoicesDueCollection],

  async setup(store: ReadStore) {
    await store.collection<InvoiceDue>(invoicesDueCollection).createIndex({ state: 1, dueAt: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    const due = store.collection<InvoiceDue>(invoicesDueCollection);
    const event = stored as StoredEvent<Handled>;
    switch (event.type) {
      case 'SaleImported': {
        const { data } = event;
        // A consumer's sale is invoiced when someone asks: nothing to keep for it here.
        if (!data.businessCustomer) return;
        await evolveOnce(due, data.saleId, event.position, (current): Fields | null =>
          current
            ? null
            : {
                state: 'awaiting',
                date: administrationDay(data.importedAt),
                dueAt: new Date(Date.parse(data.importedAt) + businessInvoiceDeadlineDays * dayMs).toISOString(),
                openLines: data.products.map((product) => product.saleProductId),
                // A shipping fee is kept whatever is cancelled: a cancellation refunds the products only.
                sold: data.shippingAmount > 0,
              },
        );
        return;
      }
      case 'SaleProductShipped':
        await evolveOnce(due, event.data.saleId, event.position, (current) => settled(current, event.data.saleProductId, event.data.preparedAt, true));
        return;
      case 'SaleProductCancelled':
        await evolveOnce(due, event.data.saleId, event.position, (current) => settled(current, event.data.saleProductId, event.data.cancelledAt, false));
        return;
      case 'InvoiceIssued':
        await evolveOnce(due, event.data.saleId, event.position, (current): Fields | null =>
          current && current.state !== 'invoiced' ? { ...current, state: 'invoiced' } : null,
        );
        return;
      default:
        return assertNever(event);
    }
  },
};
