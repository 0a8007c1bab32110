import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAccessToken } from '../../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { expectJson, importOrder, savRequest, seedCatalog, startChatbotApi, type ChatbotApi } from './chatbot-api.ts';

const unauthorized = { success: false, error: 'Non autorisé', message: "Token d'API manquant ou invalide" };

/** `authorised`: the status a chatbot token gets when it is not 200 with success true. */
type Route = { name: string; call: (api: ChatbotApi) => Test; authorised?: number };
const routes: Route[] = [
  { name: 'GET /api/sale/details/{incrementId}', call: (api) => api.request.get('/api/sale/details/100004512') },
  { name: 'GET /api/Customer/details/{email}', call: (api) => api.request.get('/api/Customer/details/claire.martin@example.org') },
  { name: 'POST /api/sav', call: (api) => api.request.post('/api/sav').send(savRequest()) },
  { name: 'GET /api/customer/sav-status', call: (api) => api.request.get('/api/customer/sav-status?increment_id=100004512') },
  { name: 'GET /api/product/{sku}', call: (api) => api.request.get('/api/product/CAN-OSLO-3P-GRY') },
  // Answered 404 once authorised (SAV 1 has no such file): never reached without a chatbot token.
  { name: 'GET /api/sav/{savId}/files/{fileId}', call: (api) => api.request.get('/api/sav/1/files/00000000-0000-4000-8000-000000000000'), authorised: 404 },
];

describe('who may call the chatbot API', () => {
  let api: ChatbotApi;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    api = await startChatbotApi();
    await seedCatalog(api);
    await importOrder(api);
    const revoked = await api.tokenFor('chatbot', 'chatbot-revoked');
    await revokeAccessToken(api.runtime.write, revoked.split('.')[0]!, systemContext());
    tokens.revoked = revoked;
    tokens['supplier-a'] = await api.tokenFor('supplier-a');
    tokens.core = await api.tokenFor('core');
    tokens.analyst = await api.tokenFor('analyst');
    // Well-formed, but the secret of another token: the ID is known, the secret is not.
    tokens.unknown = `${api.token.split('.')[0]}.${tokens.core.split('.')[1]}`;
  });
  afterAll(async () => api.close());

  const credentials: [string, (request: Test) => Test][] = [
    ['no token', (request) => request],
    ['an unknown token', (request) => request.set('X-API-Token', `${randomBytes(8).toString('hex')}.${randomBytes(32).toString('base64url')}`)],
    ['a known ID with a wrong secret', (request) => request.set('X-API-Token', tokens.unknown!)],
    ['a malformed token', (request) => request.set('X-API-Token', 'not a token')],
    ['a revoked chatbot token', (request) => request.set('X-API-Token', tokens.revoked!)],
    ['a supplier token', (request) => request.set('X-API-Token', tokens['supplier-a']!)],
    ['a core token', (request) => request.set('X-API-Token', tokens.core!)],
    ['an analyst token', (request) => request.set('X-API-Token', tokens.analyst!)],
  ];

  describe.each(routes)('$name', ({ call, authorised }) => {
    it.each(credentials)('when called with %s, it answers 401 and records nothing', async (_credential, authorize) => {
      const head = await api.runtime.eventStore.headPosition();

      const response = await authorize(call(api));

      expectJson(response, 401, unauthorized);
      expect(await api.runtime.eventStore.headPosition()).toBe(head);
    });

    it('when the chatbot token is sent as Bearer, it answers 401 with a hint naming X-API-Token, and records nothing', async () => {
      const head = await api.runtime.eventStore.headPosition();

      const response = await call(api).set('Authorization', `Bearer ${api.token}`);

      expect({ status: response.status, body: response.body }).toEqual({
        status: 401,
        body: {
          ...unauthorized,
          hint: "L'API du chatbot attend le token dans l'en-tête X-API-Token (X-API-Token: <token>), et non dans Authorization: Bearer",
        },
      });
      expect(await api.runtime.eventStore.headPosition()).toBe(head);
    });

    it('when called with a chatbot token in X-API-Token, it is answered', async () => {
      const response = await call(api).set('X-API-Token', api.token);

      expect(response.status).toBe(authorised ?? 200);
      expect(response.body.success).toBe(authorised === undefined);
    });
  });
});
