import Router from '@koa/router';
import { createInvoiceCache } from '../../../invoicing/invoice-cache.ts';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { saleCreditNote } from './sale-credit-note.ts';
import { saleInvoice } from './sale-invoice.ts';

/** The sale's invoice and credit notes, PDFs read through an action token of kind `invoice`. */
export const invoiceRoutes = (runtime: Runtime): Router => {
  const invoices = createInvoiceCache(runtime.pdf);
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.get('/api/sale-invoice/:token', noCoreQuery, saleInvoice(runtime, invoices));
  router.get('/api/sale-credit-note/:token/:number', noCoreQuery, saleCreditNote(runtime, invoices));
  return router;
};
