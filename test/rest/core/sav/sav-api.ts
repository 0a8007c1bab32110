import Koa from 'koa';
import supertest from 'supertest';
import type { Response } from 'supertest';
import type { Clock } from '../../../../src/events/command-context.ts';
import { errorHandler } from '../../../../src/rest/middleware/error-handler.ts';
import { requestContext } from '../../../../src/rest/middleware/request-context.ts';
import { readYourWrites } from '../../../../src/http/read-your-writes.ts';
import { coreSavRoutes, type CoreSavOptions } from '../../../../src/rest/core/sav/routes.ts';
import { afterWhatWasWritten, startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { importOrder, order, seedCatalog } from '../../chatbot/chatbot-api.ts';

/** The core SAV API on a fresh data directory, a frozen clock (Monday 5 October 2026, Paris) and a core token. */

export const now = '2026-10-05T08:00:00.000Z';
export const frozenClock: Clock = { now: () => new Date(now) };

export type SavApi = ApiHarness & {
  token: string;
  get: (path: string) => Promise<Response>;
  post: (path: string, body: unknown) => Promise<Response>;
};

export const startSavApi = async (options: { env?: Record<string, string>; clock?: Clock } = {}): Promise<SavApi> => {
  const api = await startApi({ clock: frozenClock, ...options });
  const token = await api.tokenFor('core', 'back-office');
  return {
    ...api,
    token,
    get: async (path) => api.request.get(path).set('Authorization', `Bearer ${token}`),
    post: async (path, body) =>
      api.request
        .post(path)
        .set('Authorization', `Bearer ${token}`)
        .send(body as object),
  };
};

/**
 * The same routes with other upload options (a test allowlist, smaller limits), in an app of their own
 * over the API's runtime: the service's app never takes them.
 */
export const savRoutesWith = (api: SavApi, options: CoreSavOptions) => {
  const app = new Koa();
  app.silent = true;
  app.use(errorHandler({ log: api.runtime.log }));
  app.use(requestContext());
  // As the server does: what a route wrote is in the read models before its answer leaves.
  app.use(readYourWrites(api.runtime.projections));
  const router = coreSavRoutes(api.runtime, options);
  app.use(router.routes()).use(router.allowedMethods());
  const request = supertest.agent(afterWhatWasWritten(api.runtime, app.callback()));
  return {
    post: async (path: string, body: unknown) =>
      request
        .post(path)
        .set('Authorization', `Bearer ${api.token}`)
        .send(body as object),
  };
};

/** The example order (sofa, table, two lamps) and a second order of the same customer with one lamp. */
export const seedSales = async (api: ApiHarness) => {
  await seedCatalog(api);
  const first = await importOrder(api);
  const second = await importOrder(
    api,
    order({
      increment_id: '100004513',
      items: [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 1, price: 129.9 }],
      payment: { method: 'card', status: 'paid', amount_paid: 129.9 },
      grand_total: 129.9,
    }),
  );
  return { first, second: { ...second, lamp: second.saleProductIds[0]! } };
};

export const complaint = (overrides: Record<string, unknown> = {}) => ({
  complaint: 'Le pied avant gauche du canapé est fendu.',
  complaint_name: 'Produit endommagé',
  sav_type: 'repair',
  ...overrides,
});
