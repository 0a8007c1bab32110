import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PdfPool } from '../pdf/pdf-pool.ts';
import type { InvoiceData } from './invoice-data.ts';

/**
 * Rendered invoices, so that the same invoice asked twice is rendered once. An invoice's bytes depend
 * on its data only (dated by the order, not by now), so the key is the sale and a digest of that data:
 * any event that changes what the invoice prints (a cancellation, a refund, an address) gives another
 * key, whichever stream it was recorded in, and nothing is ever served stale. Requests for a document
 * being rendered share its rendering. At most `maxEntries` invoices are kept (30 to 60 kB each), the
 * least recently asked for dropped first; a failed rendering is not kept.
 */
export type InvoiceCache = { pdf: (saleId: number, invoice: InvoiceData) => Promise<Buffer> };

export const createInvoiceCache = (pool: PdfPool, options: { maxEntries?: number } = {}): InvoiceCache => {
  const entries = new LRUCache<string, Promise<Buffer>>({ max: options.maxEntries ?? 256 });
  return {
    pdf: (saleId, invoice) => {
      const key = `${saleId}:${createHash('sha256').update(JSON.stringify(invoice)).digest('base64url')}`;
      const cached = entries.get(key);
      if (cached) return cached;
      const rendering = pool.render({ kind: 'invoice', data: invoice }, 'person');
      entries.set(key, rendering);
      rendering.catch(() => {
        if (entries.peek(key) === rendering) entries.delete(key);
      });
      return rendering;
    },
  };
};
