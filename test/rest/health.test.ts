import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

describe('the HTTP service', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it('when the store is open and projections run, GET /health answers 200 with each projection', async () => {
    const response = await api.request.get('/health');
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ok');
    expect(response.body.eventStore).toBe('open');
    expect(response.body.projections.map((projection: { name: string }) => projection.name)).toContain('sales');
    expect(response.body.projections.every((projection: { running: boolean }) => projection.running)).toBe(true);
  });

  it('when a route is unknown, it answers 404 in JSON', async () => {
    const response = await api.request.get('/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ success: false, error: 'Not Found', message: 'No route for GET /api/does-not-exist' });
  });

  it('every answer carries a request id, the caller\'s when well-formed', async () => {
    const response = await api.request.get('/health').set('X-Request-Id', 'abc-123');
    expect(response.headers['x-request-id']).toBe('abc-123');
  });

  it('when the store is closed, GET /health answers 503', async () => {
    const other = await startApi();
    await other.runtime.close();
    const response = await other.request.get('/health');
    expect(response.status).toBe(503);
    expect(response.body.eventStore).toBe('closed');
    await other.close();
  });
});
