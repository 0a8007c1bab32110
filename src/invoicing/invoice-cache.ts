import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { CreditNoteData, InvoiceData } from '../events/invoicing/documents.ts';
import type { PdfPool } from '../pdf/pdf-pool.ts';

/**
 * Rendered invoices and credit notes, so that the same document asked twice is rendered once. An
 * issued document never changes and its bytes depend on its recorded data only (dated by its issue),
 * so the key is its number and a digest of that data. Requests for a document being rendered share
 * its rendering. At most `maxEntries` documents are kept (30 to 60 kB each), the least recently asked
 * for dropped first; a failed rendering is not kept.
 */
export type IssuedPdfJob = { kind: 'invoice'; data: InvoiceData } | { kind: 'credit-note'; data: CreditNoteData };

export type InvoiceCache = { pdf: (job: IssuedPdfJob) => Promise<Buffer> };

export const createInvoiceCache = (pool: PdfPool, options: { maxEntries?: number } = {}): InvoiceCache => {
  const entries = new LRUCache<string, Promise<Buffer>>({ max: options.maxEntries ?? 256 });
  return {
    pdf: (job) => {
      const key = `${job.data.number}:${createHash('sha256').update(JSON.stringify(job.data)).digest('base64url')}`;
      const cached = entries.get(key);
      if (cached) return cached;
      const rendering = pool.render(job, 'person');
      entries.set(key, rendering);
      rendering.catch(() => {
        if (entries.peek(key) === rendering) entries.delete(key);
      });
      return rendering;
    },
  };
};
