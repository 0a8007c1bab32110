import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';

describe('Strict-Transport-Security', () => {
  let api: ApiHarness;
  afterEach(async () => api.close());

  it('when the request comes over plain HTTP, no HSTS header is sent', async () => {
    api = await startApi();
    const response = await api.request.get('/health');
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('when the proxy is trusted and forwards https, HSTS is sent with the configured max-age', async () => {
    api = await startApi({ env: { TRUST_PROXY: 'true', HSTS_MAX_AGE: '600' } });
    const response = await api.request.get('/health').set('X-Forwarded-Proto', 'https');
    expect(response.headers['strict-transport-security']).toBe('max-age=600; includeSubDomains');
  });

  it('when the proxy is trusted and forwards http, no HSTS header is sent', async () => {
    api = await startApi({ env: { TRUST_PROXY: 'true' } });
    const response = await api.request.get('/health').set('X-Forwarded-Proto', 'http');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('when TRUST_PROXY is unset, a forged X-Forwarded-Proto is ignored and no HSTS header is sent', async () => {
    api = await startApi();
    const response = await api.request.get('/health').set('X-Forwarded-Proto', 'https');
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});
