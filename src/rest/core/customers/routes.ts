import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { eraseCustomer } from './erase-customer.ts';

/** The customers' rights: erasure of their personal data (crypto-shredding, see docs/architecture.md). */
export const customerRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.post('/api/customers/erase', noCoreQuery, eraseCustomer(runtime));
  return router;
};
