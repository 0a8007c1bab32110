import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { handOverLine } from './hand-over-line.ts';
import { saleById } from './sale-by-id.ts';
import { saleByIncrementId } from './sale-by-increment-id.ts';
import { saleRdv } from './sale-rdv.ts';
import { saleRefunds } from './sale-refunds.ts';

/**
 * The core sale reads, for Bearer tokens of the core group. They answer the resource itself, as the
 * specification describes them (a sale object, an array of refunds, an appointment configuration);
 * only errors carry the `{ success: false, error, message }` envelope. Beside them, staff's hand-over
 * of a line its supplier refused.
 */
export const coreSaleRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.get('/api/get-sale-info-by-increment-id/:incrementId', noCoreQuery, saleByIncrementId(runtime));
  router.get('/api/sale/:id', noCoreQuery, saleById(runtime));
  router.get('/api/sale-refund/:id', noCoreQuery, saleRefunds(runtime));
  router.get('/api/sale-rdv/:id', noCoreQuery, saleRdv(runtime));
  router.post('/api/supplier-line-handover', noCoreQuery, handOverLine(runtime));
  return router;
};
