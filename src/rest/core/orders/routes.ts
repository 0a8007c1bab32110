import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { importOrder } from './import-order.ts';
import { searchProducts } from './search-products.ts';

/** The order import and the package search; the labels of imported orders are the runtime's label backlog's. */
export const orderRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.post('/api/api-add-new-order-api-shopping', noCoreQuery, importOrder(runtime));
  router.post('/api/search-ean14-product-colis', noCoreQuery, searchProducts(runtime));
  return router;
};
