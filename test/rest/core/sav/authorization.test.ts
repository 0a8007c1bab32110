import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAccessToken } from '../../../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { expectJson } from '../../chatbot/chatbot-api.ts';
import { complaint, seedSales, startSavApi, type SavApi } from './sav-api.ts';

const unauthorized = { success: false, error: 'Unauthorized', message: 'Invalid or missing Bearer token' };

type Route = { name: string; call: (api: SavApi) => Test; authorised: number };
let saleProductId = 0;
const routes: Route[] = [
  {
    name: 'POST /api/sale-sav/create-for-sale-product',
    call: (api) => api.request.post('/api/sale-sav/create-for-sale-product').send({ saleProductId, data: complaint() }),
    authorised: 201,
  },
  {
    name: 'POST /api/sale-sav/upload-file',
    // Answered 400 once authorised (the URL is internal): never fetched, and never reached without a core token.
    call: (api) =>
      api.request.post('/api/sale-sav/upload-file').send({ complaint_id: 1, prefix: 'photo', file_url: 'http://127.0.0.1:9/x.jpg', file_name: 'x.jpg' }),
    authorised: 400,
  },
  {
    name: 'GET /api/sale-sav/{savId}/files/{fileId}',
    // Answered 404 once authorised (SAV 1 has no such file): never reached without a core token.
    call: (api) => api.request.get('/api/sale-sav/1/files/00000000-0000-4000-8000-000000000000'),
    authorised: 404,
  },
  { name: 'GET /api/sale-sav/planning/occupied', call: (api) => api.request.get('/api/sale-sav/planning/occupied'), authorised: 200 },
  { name: 'GET /api/sav-holidays', call: (api) => api.request.get('/api/sav-holidays'), authorised: 200 },
  // The status changes of a SAV no one has: answered 404 once authorised, so that the matrix changes nothing.
  ...(['resolve', 'close', 'reopen', 'cancel'] as const).map((verb) => ({
    name: `POST /api/sale-sav/{id}/${verb}`,
    call: (api: SavApi) =>
      api.request.post(`/api/sale-sav/999/${verb}`).send(verb === 'resolve' ? { resolution: 'x' } : verb === 'close' ? {} : { reason: 'x' }),
    authorised: 404,
  })),
];

describe('who may call the core SAV API', () => {
  let api: SavApi;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    api = await startSavApi();
    saleProductId = (await seedSales(api)).first.sofa;
    // A first SAV, so that SAV 1 exists for the upload route.
    await api.post('/api/sale-sav/create-for-sale-product', { saleProductId, data: complaint() });
    const revoked = await api.tokenFor('core', 'core-revoked');
    await revokeAccessToken(api.runtime.write, revoked.split('.')[0]!, systemContext());
    tokens.revoked = revoked;
    tokens['supplier-a'] = await api.tokenFor('supplier-a');
    tokens.chatbot = await api.tokenFor('chatbot');
    tokens.analyst = await api.tokenFor('analyst');
  });
  afterAll(async () => api.close());

  const credentials: [string, (request: Test) => Test][] = [
    ['no token', (request) => request],
    ['an unknown token', (request) => request.set('Authorization', `Bearer ${randomBytes(8).toString('hex')}.${randomBytes(32).toString('base64url')}`)],
    ['a revoked core token', (request) => request.set('Authorization', `Bearer ${tokens.revoked}`)],
    ['a supplier token', (request) => request.set('Authorization', `Bearer ${tokens['supplier-a']}`)],
    ['a chatbot token', (request) => request.set('Authorization', `Bearer ${tokens.chatbot}`)],
    ['an analyst token', (request) => request.set('Authorization', `Bearer ${tokens.analyst}`)],
    ['the core token in X-API-Token', (request) => request.set('X-API-Token', api.token)],
  ];

  describe.each(routes)('$name', ({ call, authorised }) => {
    it.each(credentials)('when called with %s, it answers 401 and records nothing', async (_credential, authorize) => {
      const head = await api.runtime.eventStore.headPosition();

      const response = await authorize(call(api));

      expectJson(response, 401, unauthorized);
      expect(await api.runtime.eventStore.headPosition()).toBe(head);
    });

    it('when called with a core Bearer token, it is answered', async () => {
      const response = await call(api).set('Authorization', `Bearer ${api.token}`);

      expect(response.status).toBe(authorised);
    });
  });
});
