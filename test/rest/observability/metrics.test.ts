import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { sample } from '../../support/prometheus-sample.ts';

const metricsToken = 'scraper-7f3c9a1e5b2d4c6a8e0f1a2b3c4d5e6f';

describe('GET /metrics', () => {
  let api: ApiHarness;
  let analystToken: string;
  let coreToken: string;
  beforeAll(async () => {
    api = await startApi({ env: { METRICS_TOKEN: metricsToken } });
    analystToken = await api.tokenFor('analyst', 'grafana');
    coreToken = await api.tokenFor('core', 'storefront');
  });
  afterAll(async () => api.close());

  const scrape = async (): Promise<string> => {
    const response = await api.request.get('/metrics').set('Authorization', `Bearer ${metricsToken}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text;
  };

  it('when requests were answered, it counts and times them by route pattern and status, never by raw URL', async () => {
    await api.request.get('/health');
    await api.request.get('/health');
    await api.request.get('/api/get-sale-info-by-increment-id/100004512').set('Authorization', `Bearer ${coreToken}`);
    await api.request.get('/api/get-sale-info-by-increment-id/100004513');

    const text = await scrape();

    expect(sample(text, 'http_requests_total{method="GET",route="/health",status="200"}')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/get-sale-info-by-increment-id/:incrementId",status="404"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/get-sale-info-by-increment-id/:incrementId",status="401"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/health",status="200"}')).toBeGreaterThanOrEqual(2);
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/health",status="200"}');
    expect(text).not.toContain('100004512');
  });

  it('when events were appended, it tells the append latency, and each projection its lag behind the head of the log', async () => {
    const text = await scrape();
    // Issuing the tokens appended events; the read models have caught up with them.
    expect(sample(text, 'event_store_append_duration_seconds_count{outcome="ok"}')).toBeGreaterThanOrEqual(2);
    for (const { name } of api.runtime.projections.status()) {
      expect(sample(text, `projection_lag_positions{projection="${name}"}`), name).toBe(0);
    }
    expect(text).toContain('projection_lag_positions{projection="sales"} 0');
  });

  it('when a contact lead waits for its e-mail, the lead-mail backlog counts it; the label backlog is there too', async () => {
    const before = sample(await scrape(), 'lead_mail_backlog_leads');
    const created = await api.request
      .post('/api/contact-lead')
      .set('Authorization', `Bearer ${coreToken}`)
      .send({ name: 'Élodie Marchand', email: 'elodie.marchand@example.fr' });
    expect(created.status).toBe(201);

    const text = await scrape();

    expect(before).toBe(0);
    expect(sample(text, 'lead_mail_backlog_leads')).toBe(1);
    expect(sample(text, 'label_backlog_labels')).toBe(0);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it("when the caller has an analyst token, it is answered too; without a token or with another group's, 401", async () => {
    const byAnalyst = await api.request.get('/metrics').set('Authorization', `Bearer ${analystToken}`);
    const anonymous = await api.request.get('/metrics');
    const byCore = await api.request.get('/metrics').set('Authorization', `Bearer ${coreToken}`);
    const wrongSecret = await api.request.get('/metrics').set('Authorization', `Bearer ${metricsToken.slice(0, -1)}x`);

    expect(byAnalyst.status).toBe(200);
    expect(byAnalyst.text).toContain('http_requests_total');
    for (const refused of [anonymous, byCore, wrongSecret]) {
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      expect(refused.text).not.toContain('http_requests_total');
    }
  });
});
