import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { importOrder } from './import-order.ts';
import { createLabelBacklog, type LabelBacklog } from './label-backlog.ts';
import { searchProducts } from './search-products.ts';

/**
 * The order import and the package search. `labels` renders the labels of imported orders after the
 * answer; by default one backlog for this router (a caller may pass its own to wait on it).
 */
export const orderRoutes = (runtime: Runtime, options: { labels?: LabelBacklog } = {}): Router => {
  const labels = options.labels ?? createLabelBacklog(runtime);
  runtime.metrics.trackLabelBacklog(labels.pending);
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.post('/api/api-add-new-order-api-shopping', noCoreQuery, importOrder(runtime, labels));
  router.post('/api/search-ean14-product-colis', noCoreQuery, searchProducts(runtime));
  return router;
};
