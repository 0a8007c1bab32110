import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { applySaleRdv } from './apply-rdv.ts';
import { cancelSaleByToken } from './cancel.ts';
import { changeSaleAddress } from './change-address.ts';
import { checkSaleRdv } from './check-rdv.ts';
import { saveSaleDeliveryRdv } from './save-delivery-rdv.ts';

/**
 * The sale actions carried by action tokens (minted by `cli action-token`): the token in the path
 * names the sale, the action and its data; the caller is a core client (the storefront) acting for
 * the customer who followed the link. Tampered, expired or wrong-kind tokens: 404; state-changing
 * actions use their token once (second use: 409 `action_token_used`).
 */
export const saleActionRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.get('/api/sale-rdv-check/:token', noCoreQuery, checkSaleRdv(runtime));
  router.post('/api/sale-rdv-check/:token', noCoreQuery, applySaleRdv(runtime));
  router.post('/api/sale-address/:token', noCoreQuery, changeSaleAddress(runtime));
  router.post('/api/sale-delivery-rdv/:token', noCoreQuery, saveSaleDeliveryRdv(runtime));
  router.post('/api/sale-cancel/:token', noCoreQuery, cancelSaleByToken(runtime));
  return router;
};
