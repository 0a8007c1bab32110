import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

/**
 * "Chatbot responses carry a success boolean that is true on success and false on error": every
 * answer of a group is its JSON envelope, in French for the chatbot, including the answers no route
 * gives (an unknown path under a group's prefix, a method a route does not take).
 */
describe("answers no route gives, in their group's envelope", () => {
  let api: ApiHarness;
  let core: string;
  let chatbot: string;
  beforeAll(async () => {
    api = await startApi();
    core = await api.tokenFor('core');
    chatbot = await api.tokenFor('chatbot');
  });
  afterAll(async () => api.close());

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
