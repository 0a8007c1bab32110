import Router from '@koa/router';
import { createInvoiceCache } from '../../../invoices/invoice-cache.ts';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { saleInvoice } from './sale-invoice.ts';

/** The sale invoice, a PDF read through an action token of kind `invoice`. */
export const invoiceRoutes = (runtime: Runtime): Router => {
  const invoices = createInvoiceCache(runtime.pdf);
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.get('/api/sale-invoice/:token', noCoreQuery, saleInvoice(runtime, invoices));
  return router;
};
