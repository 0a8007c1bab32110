import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/logger.ts';
import { createRuntimeApp } from '../../src/server/app.ts';
import { openRuntime } from '../../src/runtime.ts';
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

  it("every answer carries a request id, the caller's when well-formed", async () => {
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

describe('the probes of orchestrators', () => {
  it('when the read models have caught up, /health/live and /health/ready answer 200', async () => {
    const api = await startApi();
    const live = await api.request.get('/health/live');
    const ready = await api.request.get('/health/ready');
    await api.close();

    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'live' });
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', eventStore: 'open', readModels: { ready: true } });
  });

  it('when the read models have not caught up yet, /health/ready answers 503 with the progress and Retry-After; /health/live 200', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'probes-'));
    // Opened, its projections not started: the state of a server still catching up with its log.
    const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'));
    const request = supertest(createRuntimeApp(runtime).callback());
    const live = await request.get('/health/live');
    const ready = await request.get('/health/ready');
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });

    expect(live.status).toBe(200);
    expect(ready.status).toBe(503);
    // No estimate yet (etaSeconds null): the default of 5 s.
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.body).toEqual({
      status: 'starting',
      eventStore: 'open',
      readModels: { ready: false, position: null, head: -1, eventsPerSecond: 0, etaSeconds: null },
      platform: 'off',
    });
  });

  it('when the store is closed, /health/ready answers 503 and /health/live still 200', async () => {
    const api = await startApi();
    await api.runtime.close();
    const live = await api.request.get('/health/live');
    const ready = await api.request.get('/health/ready');
    await api.close();

    expect(live.status).toBe(200);
    expect(ready.status).toBe(503);
    expect(ready.body.eventStore).toBe('closed');
  });
});
