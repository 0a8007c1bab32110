import Koa from 'koa';
import supertest, { type Test } from 'supertest';
import type { Clock } from '../../../../src/events/command-context.ts';
import type { OrderImportPayload } from '../../../../src/events/sales/import-sale.ts';
import { errorHandler } from '../../../../src/rest/middleware/error-handler.ts';
import { requestContext } from '../../../../src/rest/middleware/request-context.ts';
import { readYourWrites } from '../../../../src/http/read-your-writes.ts';
import type { LabelBacklog } from '../../../../src/labels/label-backlog.ts';
import { orderRoutes } from '../../../../src/rest/core/orders/routes.ts';
import { afterWhatWasWritten, startApi, type ApiHarness } from '../../../support/api-harness.ts';

/**
 * The order routes on a fresh data directory and a frozen clock, mounted on an app of their own, with
 * the label backlog running so that a spec can wait for the labels rendered after an import
 * (`labels.idle()`). `api.request` is the
 * whole service on the same runtime: get-sales, the label files, the routes as mounted for clients.
 */

export const frozenClock: Clock = { now: () => new Date('2026-10-03T08:00:00.000Z') };
export const baseUrl = 'https://orders.example.test';
export const importPath = '/api/api-add-new-order-api-shopping';
export const searchPath = '/api/search-ean14-product-colis';
export const jsonUtf8 = 'application/json; charset=utf-8';

export type OrdersApi = ApiHarness & {
  labels: LabelBacklog;
  coreToken: string;
  /** A POST with the core token, to the order routes. */
  post: (path: string, body?: unknown) => Test;
};

export const startOrdersApi = async (): Promise<OrdersApi> => {
  const api = await startApi({ clock: frozenClock, env: { BASE_URL: baseUrl } });
  // The server's label backlog, following the imports from the log as `npm start` runs it.
  const labels = api.runtime.labels;
  await labels.start();
  const app = new Koa();
  app.silent = true;
  app.use(errorHandler({ log: api.runtime.log }));
  app.use(requestContext());
  // As the server does: what a route wrote is in the read models before its answer leaves.
  app.use(readYourWrites(api.runtime.projections));
  const router = orderRoutes(api.runtime);
  app.use(router.routes()).use(router.allowedMethods());
  const orders = supertest.agent(afterWhatWasWritten(api.runtime, app.callback()));
  const coreToken = await api.tokenFor('core', 'storefront');
  return {
    ...api,
    labels,
    coreToken,
    post: (path, body) => {
      const request = orders.post(path).set('Authorization', `Bearer ${coreToken}`);
      return body === undefined ? request : request.send(body as object);
    },
    close: async () => {
      await labels.idle();
      await api.close();
    },
  };
};

let lastIncrementId = 700_000_000;

/** A drop-shipped sofa (supplier-a), a table from supplier-b and two lamps from own stock, under a fresh increment ID. */
export const anOrder = (overrides: Partial<OrderImportPayload> = {}): OrderImportPayload => ({
  source: 'shopping-api',
  increment_id: String(++lastIncrementId),
  created_at: '2026-10-02T09:14:00+02:00',
  currency: 'EUR',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
  shipping_address: {
    firstname: 'Claire',
    lastname: 'Martin',
    street: ['12 rue des Lilas', 'Bâtiment B'],
    postcode: '69003',
    city: 'Lyon',
    country_id: 'FR',
    telephone: '+33612345678',
  },
  items: [
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: 'supplier-a', carrier: 'Geodis' },
    { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: 'supplier-b', carrier: 'DB Schenker' },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 1407.8 },
  shipping_amount: 0,
  grand_total: 1407.8,
  ...overrides,
});

export const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });
