import type { Projection } from './projection.ts';
import { accessTokensProjection } from './access/access-tokens-projection.ts';
import { savsProjection } from './after-sales/savs-projection.ts';
import { productsProjection } from './catalog/products-projection.ts';
import { customersProjection } from './customers/customers-projection.ts';
import { platformDocumentsProjection } from './e-invoicing/platform-documents-projection.ts';
import { dashboardProjection } from './dashboard/dashboard-projection.ts';
import { issuedDocumentsProjection } from './invoicing/issued-documents-projection.ts';
import { invoicesDueProjection } from './invoicing/invoices-due-projection.ts';
import { leadsProjection } from './leads/leads-projection.ts';
import { planningProjection } from './planning/planning-projection.ts';
import { salesProjection } from './sales/sales-projection.ts';
import { supplierLinesProjection } from './supplier-lines/supplier-lines-projection.ts';
import { supplierPerformanceProjection } from './supplier-performance/supplier-performance-projection.ts';
import { webhooksProjection } from './webhooks/webhooks-projection.ts';

/**
 * Every read model the service keeps. Orders are dated in the planning's time zone (`timezone`, an IANA
 * name), the zone the suppliers' date filters and the shop's customers think in.
 */
export const allProjections = (options: { timezone: string }): Projection[] => [
  salesProjection(options),
  supplierLinesProjection(options),
  customersProjection,
  savsProjection,
  productsProjection,
  planningProjection,
  leadsProjection,
  accessTokensProjection,
  supplierPerformanceProjection(options),
  dashboardProjection(options),
  issuedDocumentsProjection,
  invoicesDueProjection,
  webhooksProjection,
  platformDocumentsProjection,
];
