import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

/** Requests as clients of the legacy service send them, and the answers they rely on, across the groups. */
let api: ApiHarness;
let core: string;
let chatbot: string;
beforeAll(async () => {
  api = await startApi();
  core = await api.tokenFor('core');
  chatbot = await api.tokenFor('chatbot');
});
afterAll(async () => api.close());

/**
 * Bodies as older clients send them: JSON without a Content-Type, or declared text/plain, is read as
 * JSON; a body that is not JSON at all is refused with 415 in the group's own envelope (French for
 * the chatbot), never with a misleading "field missing".
 */
describe('request bodies as legacy clients send them', () => {
  const lead = JSON.stringify({ name: 'Élodie Marchand', email: 'elodie.marchand@example.fr', phone: '+33 6 12 34 56 78' });
  /** A raw text body, sent with the given Content-Type, or with none at all. */
  const postLead = (body: string, contentType: string | undefined) => {
    const request = api.request.post('/api/contact-lead').set('Authorization', `Bearer ${core}`).send(body);
    return contentType === undefined ? request.unset('Content-Type') : request.set('Content-Type', contentType);
  };

  it('when JSON comes without a Content-Type, it is read as JSON: the lead is recorded', async () => {
    const response = await postLead(lead, undefined);

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ success: true, lead_id: expect.any(String) });
  });

  it('when JSON comes as text/plain, it is read as JSON: the lead is recorded', async () => {
    const response = await postLead(lead, 'text/plain; charset=utf-8');

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ success: true });
  });

  it.each([
    ['form-encoded', 'application/x-www-form-urlencoded', 'name=Alice&email=alice%40example.com'],
    ['XML', 'application/xml', '<lead><name>Alice</name></lead>'],
    ['text that is not JSON', 'text/plain', 'name=Alice'],
    ['undeclared text that is not JSON', undefined, 'name=Alice'],
  ])('when the body is %s, the core API answers 415 in its envelope and records nothing', async (_case, contentType, body) => {
    const before = await api.runtime.eventStore.headPosition();

    const response = await postLead(body, contentType);

    expect([response.status, response.body]).toEqual([415, { success: false, error: 'Unsupported Media Type', message: 'The request body must be JSON' }]);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
  });

  it('when the chatbot sends a body that is not JSON, the answer is 415 in its envelope, in French', async () => {
    const response = await api.request
      .post('/api/sav')
      .set('X-API-Token', chatbot)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('increment_id=1');

    expect([response.status, response.body]).toEqual([
      415,
      { success: false, error: 'Type de contenu non pris en charge', message: 'Le corps de la requête doit être au format JSON' },
    ]);
  });

  it('when a body is declared JSON but malformed, the answer stays 400 "not valid JSON"', async () => {
    const response = await postLead('{"name": ', 'application/json');

    expect([response.status, response.body]).toEqual([400, { success: false, error: 'Bad Request', message: 'The request body is not valid JSON' }]);
  });
});

/**
 * "Chatbot responses carry a success boolean that is true on success and false on error": every
 * answer of a group is its JSON envelope, in French for the chatbot, including the answers no route
 * gives (an unknown path under a group's prefix, a method a route does not take).
 */
describe("answers no route gives, in their group's envelope", () => {
  it('when a core route is called with a method it does not take, it answers 405 in the core envelope, JSON, with Allow', async () => {
    const response = await api.request.delete('/api/contact-lead').set('Authorization', `Bearer ${core}`);

    expect([response.status, response.type, response.headers.allow]).toEqual([405, 'application/json', 'POST']);
    expect(response.body).toEqual({ success: false, error: 'Method Not Allowed', message: 'Use POST on this route' });
  });

  it('when a chatbot route is called with a method it does not take, it answers 405 in the chatbot envelope, in French', async () => {
    const response = await api.request.put('/api/sav').set('X-API-Token', chatbot).send({});

    expect([response.status, response.type, response.headers.allow]).toEqual([405, 'application/json', 'POST']);
    expect(response.body).toEqual({ success: false, error: 'Méthode non autorisée', message: 'Utilisez POST sur cette route' });
  });

  it('when a path under a chatbot route has no route, it answers 404 in the chatbot envelope, in French', async () => {
    const response = await api.request.get('/api/product/').set('X-API-Token', chatbot);

    expect([response.status, response.type]).toEqual([404, 'application/json']);
    expect(response.body).toEqual({ success: false, error: 'Ressource introuvable', message: 'Aucune route pour GET /api/product/' });
  });

  it('when an unknown path is outside every group, it answers 404 in the core envelope', async () => {
    const response = await api.request.get('/api/nothing-here');

    expect(response.body).toEqual({ success: false, error: 'Not Found', message: 'No route for GET /api/nothing-here' });
  });
});

/**
 * Spec: "answer 400 for a parameter the route does not know rather than ignoring it silently" (issue):
 * a route that takes no query parameter refuses any, in its group's envelope, before doing anything.
 */
describe('query parameters on routes that take none', () => {
  it.each([
    ['GET', '/api/sale/1?id=1', 'id'],
    ['GET', '/api/get-sale-info-by-increment-id/100000001?store=fr', 'store'],
    ['GET', '/api/sale-refund/1?page=2', 'page'],
    ['GET', '/api/sale-rdv/1?from=2026-01-01', 'from'],
    ['GET', '/api/sale-invoice/abc?download=1', 'download'],
    ['POST', '/api/contact-lead?source=landing', 'source'],
    ['POST', '/api/search-ean14-product-colis?sku=X', 'sku'],
    ['POST', '/api/sale-sav/create-for-sale-product?debug=1&trace=2', 'debug, trace'],
  ])('core: %s %s answers 400 naming the parameter, and records nothing', async (method, path, keys) => {
    const before = await api.runtime.eventStore.headPosition();

    const response = await api.request[method === 'GET' ? 'get' : 'post'](path).set('Authorization', `Bearer ${core}`).send({});

    expect([response.status, response.body]).toEqual([
      400,
      { success: false, error: 'invalid_request', message: `unknown parameter(s) ${keys}; this operation takes no query parameter` },
    ]);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
  });

  it.each([
    ['GET', '/api/sale/details/100000001?lang=fr', 'lang'],
    ['GET', '/api/Customer/details/a@example.fr?full=1', 'full'],
    ['GET', '/api/product/SKU-1?stock=1', 'stock'],
    ['POST', '/api/sav?increment_id=100000001', 'increment_id'],
  ])('chatbot: %s %s answers 400 in French naming the parameter', async (method, path, keys) => {
    const response = await api.request[method === 'GET' ? 'get' : 'post'](path).set('X-API-Token', chatbot).send({});

    expect([response.status, response.body]).toEqual([
      400,
      { success: false, error: 'Paramètres invalides', message: `Paramètre(s) inconnu(s) : ${keys} ; cette opération n'en prend aucun` },
    ]);
  });

  it('supplier: a ship-sale with its service_order_id in the query answers 400 and ships nothing', async () => {
    const supplier = await api.tokenFor('supplier-a');
    const before = await api.runtime.eventStore.headPosition();

    const response = await api.request.post('/api/supplier-a/ship-sale?service_order_id=100000001_1').set('Authorization', `Bearer ${supplier}`).send({});

    expect([response.status, response.body]).toEqual([
      400,
      { success: false, message: 'Unknown parameter(s) service_order_id; this operation takes no query parameter' },
    ]);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
  });
});
