import type { GraphQLSchema } from 'graphql/index.js';
import { builder } from './builder.ts';
import './scalars.ts';
import './sales/sale-query.ts';
import './sales/sales-query.ts';
import './sale-log/sale-log-query.ts';
import './time-travel/sale-at-query.ts';
import './event-feed/events-query.ts';
import './audit/log-proofs.ts';
import './planning/planning-occupancy-query.ts';
import './planning/planning-mutations.ts';
import './sales/refund-mutations.ts';
import './sales/supplier-line-mutations.ts';
import './access/mint-action-token-mutation.ts';
import './after-sales/sav-mutations.ts';
import './after-sales/sav-appointment-fields.ts';
import './supplier-performance/supplier-performance-query.ts';
import './supplier-performance/supplier-open-lines-query.ts';
import './dashboard/dashboard-query.ts';
import './after-sales/sav-status-counts-query.ts';
import './e-invoicing/platform-documents-query.ts';

// graphql-js is imported by its CommonJS entry, 'graphql/index.js', the one @pothos and graphql-yoga
// load under Node: a second copy (the ESM entry some bundlers pick) would fail graphql's instanceof checks.

/** Every module registers its types and fields on the builder; the printed schema is snapshot-tested so a dropped import shows. */
export const buildSchema = (): GraphQLSchema => builder.toSchema({ sortSchema: true });
