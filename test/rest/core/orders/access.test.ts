import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAccessToken } from '../../../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { anOrder, importPath, searchPath, startOrdersApi, type OrdersApi } from './orders-api.ts';

const unauthorized = { success: false, error: 'Unauthorized', message: 'Invalid or missing Bearer token' };

/** The routes as the service mounts them for its clients (api.request), not the spec's own app. */
type Route = { name: string; served: number; call: (api: OrdersApi) => Test };
const routes: Route[] = [
  {
    name: `POST ${importPath}`,
    served: 201,
    call: (api) =>
      api.request.post(importPath).send(anOrder({ items: [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire', qty_ordered: 1, price: 129.9, supplier: null }] })),
  },
  { name: `POST ${searchPath}`, served: 200, call: (api) => api.request.post(searchPath).send({ sku: 'LAMP-ARC-BLK' }) },
];

describe('who may import orders and search packages', () => {
  let api: OrdersApi;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    api = await startOrdersApi();
    for (const group of ['supplier-a', 'supplier-b', 'chatbot', 'analyst'] as const) tokens[group] = await api.tokenFor(group);
    const revoked = await api.tokenFor('core', 'core-revoked');
    await revokeAccessToken(api.runtime.write, revoked.split('.')[0]!, systemContext());
    tokens.revoked = revoked;
  });
  afterAll(async () => api.close());

  const credentials: [string, (request: Test) => Test][] = [
    ['no token', (request) => request],
    ['an unknown token', (request) => request.set('Authorization', `Bearer ${randomBytes(8).toString('hex')}.${randomBytes(32).toString('base64url')}`)],
    ['a revoked core token', (request) => request.set('Authorization', `Bearer ${tokens.revoked}`)],
    ['the core token in X-API-Token', (request) => request.set('X-API-Token', api.coreToken)],
    ...(['supplier-a', 'supplier-b', 'chatbot', 'analyst'] as const).map((group): [string, (request: Test) => Test] => [
      `a ${group} token`,
      (request) => request.set('Authorization', `Bearer ${tokens[group]}`),
    ]),
  ];

  for (const route of routes) {
    it.each(credentials)(`when ${route.name} comes with %s, it answers 401 and records nothing`, async (_name, withCredentials) => {
      const before = await api.runtime.eventStore.headPosition();

      const response = await withCredentials(route.call(api));

      expect([response.status, response.body]).toEqual([401, unauthorized]);
      expect(await api.runtime.eventStore.headPosition()).toBe(before);
    });

    it(`when ${route.name} comes with a core token, it is served`, async () => {
      const response = await route.call(api).set('Authorization', `Bearer ${api.coreToken}`);

      expect([response.status, response.body.error]).toEqual([route.served, undefined]);
    });
  }
});
