import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { saleInvoice } from './sale-invoice.ts';

/** The sale invoice, a PDF read through an action token of kind `invoice`. */
export const invoiceRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.get('/api/sale-invoice/:token', noCoreQuery, saleInvoice(runtime));
  return router;
};
