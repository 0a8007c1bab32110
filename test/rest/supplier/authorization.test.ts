import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken, revokeAccessToken } from '../../../src/events/access/access-token-handlers.ts';
import type { TokenGroup } from '../../../src/events/access/events.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import type { SupplierName } from '../../../src/events/schema/common-schemas.ts';
import { readDomainStream } from '../../../src/events/domain-store.ts';
import { saleStreamName, type SaleEvent } from '../../../src/events/sales/events.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { baseUrl, bearer, importLine, jsonUtf8, shippedBody, unauthorizedBody } from './supplier-fixtures.ts';

type Route = { method: 'get' | 'post'; operation: string };
const operations: readonly Route[] = [
  { method: 'get', operation: 'get-sales' },
  { method: 'post', operation: 'acknowledge-sale' },
  { method: 'post', operation: 'ship-sale' },
];
const suppliers: readonly SupplierName[] = ['supplier-a', 'supplier-b'];
const otherSupplier = (supplier: SupplierName): SupplierName => (supplier === 'supplier-a' ? 'supplier-b' : 'supplier-a');

describe('the supplier API authorization', () => {
  let api: ApiHarness;
  const tokens = {} as Record<TokenGroup, string>;
  const lines = {} as Record<SupplierName, string>;
  let revoked: string;

  beforeAll(async () => {
    api = await startApi({ env: { BASE_URL: baseUrl } });
    for (const group of ['supplier-a', 'supplier-b', 'core', 'chatbot', 'analyst'] as const) tokens[group] = await api.tokenFor(group);
    for (const supplier of suppliers) lines[supplier] = await importLine(api, supplier);
    const issued = await issueAccessToken(api.runtime.write, { group: 'supplier-a' }, systemContext());
    await revokeAccessToken(api.runtime.write, issued.tokenId, systemContext());
    revoked = issued.token;
  });
  afterAll(async () => api.close());

  const call = (supplier: SupplierName, route: Route, headers: Record<string, string>) => {
    const request = api.request[route.method](`/api/${supplier}/${route.operation}`).set(headers);
    return route.method === 'post' ? request.send({ service_order_id: lines[supplier] }) : request;
  };

  const refusedCredentials: readonly [string, (supplier: SupplierName) => Record<string, string>][] = [
    ['no token', () => ({})],
    ['an unknown token', () => bearer('0123456789abcdef.bm90LWEtcmVhbC1zZWNyZXQtYXQtYWxsLWZvci10ZXN0cw')],
    ['a malformed token', () => bearer('not-a-token')],
    ['a revoked token', () => bearer(revoked)],
    ["the other supplier's token", (supplier) => bearer(tokens[otherSupplier(supplier)])],
    ['a core token', () => bearer(tokens.core)],
    ['a chatbot token', () => bearer(tokens.chatbot)],
    ['an analyst token', () => bearer(tokens.analyst)],
    ['its own token in X-API-Token instead of Bearer', (supplier) => ({ 'X-API-Token': tokens[supplier] })],
    ['its own token under another scheme', (supplier) => ({ Authorization: `Token ${tokens[supplier]}` })],
  ];

  for (const supplier of suppliers) {
    for (const route of operations) {
      for (const [credential, headers] of refusedCredentials) {
        it(`when ${route.method.toUpperCase()} /api/${supplier}/${route.operation} comes with ${credential}, it answers the documented 401`, async () => {
          const response = await call(supplier, route, headers(supplier));
          expect(response.status).toBe(401);
          expect(response.headers['content-type']).toBe(jsonUtf8);
          expect(response.text).toBe(JSON.stringify(unauthorizedBody));
        });
      }
    }
  }

  it('when every refused call is done, no line was acknowledged nor shipped', async () => {
    for (const supplier of suppliers) {
      const { events } = await readDomainStream<SaleEvent>(api.runtime.eventStore, saleStreamName(lines[supplier].split('_')[0]!));
      expect(events.map((event) => event.type)).toEqual(['SaleImported', 'TrackingNumberAllocated']);
      const listing = await api.request.get(`/api/${supplier}/get-sales`).set(bearer(tokens[supplier]));
      expect(listing.body.map((line: { service_order_id: string }) => line.service_order_id)).toEqual([lines[supplier]]);
    }
  });

  it("when a supplier's own token is revoked, it is refused right after", async () => {
    const issued = await issueAccessToken(api.runtime.write, { group: 'supplier-b', label: 'entrepot-b' }, systemContext());
    expect((await api.request.get('/api/supplier-b/get-sales').set(bearer(issued.token))).status).toBe(200);
    await revokeAccessToken(api.runtime.write, issued.tokenId, systemContext());
    const response = await api.request.get('/api/supplier-b/get-sales').set(bearer(issued.token));
    expect(response.status).toBe(401);
    expect(response.text).toBe(JSON.stringify(unauthorizedBody));
  });

  it('when the supplier segment is unknown, it answers 404 whatever the token', async () => {
    const response = await api.request.get('/api/supplier-c/get-sales').set(bearer(tokens['supplier-a']));
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe(jsonUtf8);
  });

  it("when a supplier ships with its own token, the event names the token's label", async () => {
    const issued = await issueAccessToken(api.runtime.write, { group: 'supplier-a', label: 'entrepot-lyon' }, systemContext());
    const serviceOrderId = await importLine(api, 'supplier-a');
    const response = await api.request
      .post('/api/supplier-a/ship-sale')
      .set(bearer(issued.token))
      .set('X-Request-Id', 'ship-attribution-1')
      .send({ service_order_id: serviceOrderId });
    expect(response.text).toBe(JSON.stringify(shippedBody));
    const { events } = await readDomainStream<SaleEvent>(api.runtime.eventStore, saleStreamName(serviceOrderId.split('_')[0]!));
    const shipped = events.find((event) => event.type === 'SaleProductShipped');
    expect(shipped?.metadata.actor).toEqual({ kind: 'token', group: 'supplier-a', label: 'entrepot-lyon', tokenId: issued.tokenId });
    // The caller's id is kept as its own; the correlation is the service's.
    expect(shipped?.metadata.clientRequestId).toBe('ship-attribution-1');
    expect(shipped?.metadata.correlationId).not.toBe('ship-attribution-1');
  });
});
