import Router from '@koa/router';
import { supplierName, type SupplierName } from '../../events/schema/common-schemas.ts';
import { labelLinkKey } from '../../labels/label-link-signature.ts';
import { createLabelLinks } from '../../labels/label-links.ts';
import { supplierLinesProjection } from '../../projections/supplier-lines/supplier-lines-projection.ts';
import type { Runtime } from '../../runtime.ts';
import { apiGroup } from '../middleware/api-group.ts';
import { authenticate } from '../../http/authenticate.ts';
import { idempotencyKey } from '../middleware/idempotency-key.ts';
import { acknowledgeSale } from './acknowledge-sale.ts';
import { getSales, type SalesPage } from './get-sales.ts';
import { noQueryParameters } from '../query-parameters.ts';
import { requestBody } from '../request-body.ts';
import { refuseSale } from './refuse-sale.ts';
import { shipSale } from './ship-sale.ts';
import { addWebhookRoutes } from './webhook-routes.ts';
import { invalidParameter, unauthorized, unknownParameters } from './supplier-answers.ts';
import { createSupplierSalesCache } from './supplier-cache.ts';

const noSupplierQuery = noQueryParameters((keys) => invalidParameter(unknownParameters(keys, [])));

/**
 * The supplier API: the same operations under `/api/supplier-a` and `/api/supplier-b`. A
 * supplier's token opens its own segment only; an unknown segment is no route at all (404).
 */

export const supplierRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  const projection = supplierLinesProjection({ timezone: runtime.config.planningTimezone });

  const linkKey = labelLinkKey(runtime.tokenSecret);

  for (const supplier of supplierName.options) {
    const base = `/api/${supplier}`;
    const guard = [
      apiGroup('supplier'),
      authenticate({ findToken: runtime.accessTokens, scheme: 'bearer', groups: [supplier] satisfies SupplierName[], unauthorized }),
      requestBody(runtime.config),
      idempotencyKey(runtime),
    ];
    // The spec has supplier-a's listing cached 30 minutes per query and supplier-b's read fresh on every
    // call: supplier-b gets no cache at all, so it can never be answered from one.
    // Whichever instance runs the projection: a line shipped through another instance is never served from this one's cache.
    const version = () => runtime.projections.currentContentVersion(projection.name, supplier);
    const cache = supplier === 'supplier-a' ? createSupplierSalesCache<SalesPage>({ version, clock: runtime.clock }) : undefined;
    const commandDeps = { supplier, salesDeps: runtime.salesDeps };
    const labelLinks = createLabelLinks({ key: linkKey, supplier, clock: runtime.clock });
    const listingDeps = { supplier, readStore: runtime.readStore, baseUrl: runtime.config.baseUrl, labelLinks, ...(cache && { cache }) };

    router.get(`${base}/get-sales`, ...guard, getSales(listingDeps));
    router.post(`${base}/acknowledge-sale`, ...guard, noSupplierQuery, acknowledgeSale(commandDeps));
    router.post(`${base}/ship-sale`, ...guard, noSupplierQuery, shipSale(commandDeps));
    router.post(`${base}/refuse-sale`, ...guard, noSupplierQuery, refuseSale(commandDeps));
    addWebhookRoutes(router, base, guard, { supplier, webhooks: runtime.webhooks });
  }
  return router;
};
