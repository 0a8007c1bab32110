import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { contactLead } from './contact-lead.ts';

/** The contact leads: recorded here, mailed to the team by the lead notification job. */
export const leadRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.post('/api/contact-lead', noCoreQuery, contactLead(runtime));
  return router;
};
