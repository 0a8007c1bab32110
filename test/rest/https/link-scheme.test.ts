import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { expectSignedLabelLink } from '../../support/label-links.ts';
import { anOrder, bearer, importOrder } from '../supplier/supplier-fixtures.ts';

describe('link_to_label behind HTTPS', () => {
  let api: ApiHarness;
  afterEach(async () => api.close());

  it('when BASE_URL is https, GET /api/supplier-a/get-sales links labels over https on that host', async () => {
    api = await startApi({ env: { BASE_URL: 'https://api.example.com' } });
    const token = await api.tokenFor('supplier-a');
    const [line] = await importOrder(api, anOrder([{ supplier: 'supplier-a', carrier: 'Geodis', wholesalePrice: 50 }]));

    const response = await api.request.get('/api/supplier-a/get-sales').set(bearer(token));
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
    expectSignedLabelLink(api.runtime, response.body[0].link_to_label, { baseUrl: 'https://api.example.com', supplier: 'supplier-a', serviceOrderId: line! });
  });

  it('when BASE_URL is http, the links stay http', async () => {
    api = await startApi({ env: { BASE_URL: 'http://intranet.example.com:8080' } });
    const token = await api.tokenFor('supplier-a');
    const [line] = await importOrder(api, anOrder([{ supplier: 'supplier-a', carrier: 'Geodis', wholesalePrice: 50 }]));

    const response = await api.request.get('/api/supplier-a/get-sales').set(bearer(token));
    expect(response.body).toHaveLength(1);
    expectSignedLabelLink(api.runtime, response.body[0].link_to_label, {
      baseUrl: 'http://intranet.example.com:8080',
      supplier: 'supplier-a',
      serviceOrderId: line!,
    });
  });
});
