import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { bearer, jsonUtf8 } from './supplier-fixtures.ts';

/** Bodies refused by the JSON parser, before any supplier route runs: still in the supplier envelope. */
describe('the supplier API, on bodies the JSON parser refuses', () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    api = await startApi();
    token = await api.tokenFor('supplier-a');
  });
  afterAll(async () => api.close());

  it('when the body is not valid JSON, it answers 400 in the supplier envelope', async () => {
    const response = await api.request
      .post('/api/supplier-a/ship-sale')
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .send('{"service_order_id": ');
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe(jsonUtf8);
    expect(response.text).toBe(JSON.stringify({ success: false, message: 'The request body is not valid JSON' }));
  });

  it('when the body is over 1 MiB, it answers 413 in the supplier envelope', async () => {
    const response = await api.request
      .post('/api/supplier-a/acknowledge-sale')
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ service_order_id: '1_2', padding: 'x'.repeat(1024 * 1024) }));
    expect(response.status).toBe(413);
    expect(response.headers['content-type']).toBe(jsonUtf8);
    expect(response.text).toBe(JSON.stringify({ success: false, message: 'The request body exceeds 1 MiB' }));
  });
});
