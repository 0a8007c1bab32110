import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAccessToken } from '../../../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { expectJson, importOrder, seedCatalog, startCoreSalesApi, type CoreSalesApi } from './core-sales-api.ts';

const unauthorized = { success: false, error: 'Unauthorized', message: 'Invalid or missing Bearer token' };

describe('who may call the core sale reads', () => {
  let api: CoreSalesApi;
  let saleId: number;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    api = await startCoreSalesApi();
    await seedCatalog(api);
    saleId = (await importOrder(api)).saleId;
    const revoked = await api.tokenFor('core', 'core-revoked');
    await revokeAccessToken(api.runtime.write, revoked.split('.')[0]!, systemContext());
    tokens.revoked = revoked;
    tokens['supplier-a'] = await api.tokenFor('supplier-a');
    tokens.chatbot = await api.tokenFor('chatbot');
    tokens.analyst = await api.tokenFor('analyst');
  });
  afterAll(async () => api.close());

  const routes: { name: string; path: () => string }[] = [
    { name: 'GET /api/get-sale-info-by-increment-id/{incrementId}', path: () => '/api/get-sale-info-by-increment-id/100004512' },
    { name: 'GET /api/sale/{id}', path: () => `/api/sale/${saleId}` },
    { name: 'GET /api/sale-refund/{id}', path: () => `/api/sale-refund/${saleId}` },
    { name: 'GET /api/sale-rdv/{id}', path: () => `/api/sale-rdv/${saleId}` },
  ];

  const bearer = (name: string) => (request: Test) => request.set('Authorization', `Bearer ${tokens[name]}`);
  const credentials: [string, (request: Test) => Test][] = [
    ['no token', (request) => request],
    ['an unknown token', (request) => request.set('Authorization', `Bearer ${randomBytes(8).toString('hex')}.${randomBytes(32).toString('base64url')}`)],
    ['a revoked core token', bearer('revoked')],
    ['a supplier-a token', bearer('supplier-a')],
    ['a chatbot token', bearer('chatbot')],
    ['an analyst token', bearer('analyst')],
    ['the core token in X-API-Token', (request) => request.set('X-API-Token', api.token)],
  ];

  describe.each(routes)('$name', ({ path }) => {
    it.each(credentials)('when called with %s, it answers 401', async (_credential, authorize) => {
      expectJson(await authorize(api.request.get(path())), 401, unauthorized);
    });

    it('when called with a core token, it answers 200', async () => {
      const response = await api.get(path());

      expect(response.status).toBe(200);
    });
  });

  it('when the sale ID is invalid but no token is given, it answers 401 before looking at the ID', async () => {
    expectJson(await api.request.get('/api/sale/abc'), 401, unauthorized);
  });
});
