import type { Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAccessToken } from '../../../../src/events/access/access-token-handlers.ts';
import type { ActionKind } from '../../../../src/events/access/events.ts';
import { mintActionToken } from '../../../../src/events/access/mint-action-token.ts';
import { signedActionToken } from '../../../support/signed-action-token.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { expectAnswer, expectRefused, importOrder, start, startSaleActionsApi, type ImportedOrder, type SaleActionsApi } from './sale-actions-api.ts';

/** No sale has this ID: the tests import one order. */
const unknownSaleId = 424242;

type Route = { name: string; method: 'get' | 'post'; path: string; kind: ActionKind; data?: Record<string, unknown> };
const routes: Route[] = [
  { name: 'GET /api/sale-rdv-check/{token}', method: 'get', path: '/api/sale-rdv-check/', kind: 'rdv', data: { date: '2026-10-12', time: '10:00' } },
  { name: 'POST /api/sale-rdv-check/{token}', method: 'post', path: '/api/sale-rdv-check/', kind: 'rdv', data: { date: '2026-10-12', time: '10:00' } },
  {
    name: 'POST /api/sale-address/{token}',
    method: 'post',
    path: '/api/sale-address/',
    kind: 'address',
    data: { firstname: 'Claire', lastname: 'Martin', street: ['4 place Bellecour'], postcode: '69002', city: 'Lyon', country_id: 'FR' },
  },
  {
    name: 'POST /api/sale-delivery-rdv/{token}',
    method: 'post',
    path: '/api/sale-delivery-rdv/',
    kind: 'delivery-rdv',
    data: { provider: 'DPD', reference: 'DPD-1' },
  },
  { name: 'POST /api/sale-cancel/{token}', method: 'post', path: '/api/sale-cancel/', kind: 'cancel' },
];

const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decoded = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
/** One base64url character in the middle of the sealed token changed. */
const flipMiddle = (token: string) => {
  const index = Math.floor(token.length / 2);
  return `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
};
/** A token of the earlier signed format, its payload rewritten to another sale, the signature kept. */
const otherSale = (token: string) => {
  const [payload, signature] = token.split('.') as [string, string];
  return `${encoded({ ...decoded(payload), saleId: 2 })}.${signature}`;
};

describe('the action token of each sale action', () => {
  let api: SaleActionsApi;
  let sale: ImportedOrder;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    api = await startSaleActionsApi();
    sale = await importOrder(api);
    tokens['supplier-a'] = await api.tokenFor('supplier-a');
    tokens.chatbot = await api.tokenFor('chatbot');
    tokens.analyst = await api.tokenFor('analyst');
    const revoked = await api.tokenFor('core', 'revoked');
    await revokeAccessToken(api.runtime.write, revoked.split('.')[0]!, systemContext());
    tokens.revoked = revoked;
  });
  afterAll(async () => api.close());

  describe.each(routes)('$name', (route) => {
    const call = (token: string): Test => api.request[route.method](`${route.path}${token}`);
    const send = (token: string) => call(token).set('Authorization', `Bearer ${api.token}`);
    const valid = (saleId = sale.saleId) => api.mint(route.kind, saleId, route.data ? { data: route.data } : {});
    const signedValid = () => signedActionToken(api.payloadOf(valid()), api.runtime.tokenSecret);

    const refusals: { when: string; token: () => string; status: number; error: string; message: string }[] = [
      {
        when: 'a character of it is changed',
        token: () => flipMiddle(valid()),
        status: 404,
        error: 'invalid_action_token',
        message: 'The action token is not valid',
      },
      {
        when: 'it is of the earlier signed format and its payload is rewritten to another sale',
        token: () => otherSale(signedValid()),
        status: 404,
        error: 'invalid_action_token',
        message: 'The action token is not valid',
      },
      { when: 'it is not a token', token: () => 'not-a-token', status: 404, error: 'invalid_action_token', message: 'The action token is malformed' },
      {
        when: 'it was minted for another action',
        token: () => api.mint('invoice', sale.saleId),
        status: 404,
        error: 'wrong_action_token',
        message: `This token was issued for the action "invoice", not "${route.kind}"`,
      },
      { when: 'its sale does not exist', token: () => valid(unknownSaleId), status: 404, error: 'sale_not_found', message: `No sale with ID ${unknownSaleId}` },
    ];
    it.each(refusals)('when $when, it answers $status $error and changes nothing', async ({ token, status, error, message }) => {
      const head = await api.head();

      expectAnswer(await send(token()), status, { success: false, error, message });
      expect(await api.head()).toBe(head);
    });

    it('when it has expired by the (frozen) clock, it answers 404 and changes nothing', async () => {
      const token = mintActionToken({
        secret: api.runtime.tokenSecret,
        now: new Date(start),
        action: route.kind,
        saleId: sale.saleId,
        data: route.data,
        ttlSeconds: 60,
      }).token;
      const head = await api.head();
      api.advance(60);
      try {
        expectAnswer(await send(token), 404, { success: false, error: 'invalid_action_token', message: 'The action token has expired' });
      } finally {
        api.advance(-60);
      }
      expect(await api.head()).toBe(head);
    });

    const credentials: [string, (request: Test) => Test][] = [
      ['no token', (request) => request],
      ['a supplier token', (request) => request.set('Authorization', `Bearer ${tokens['supplier-a']}`)],
      ['a chatbot token', (request) => request.set('Authorization', `Bearer ${tokens.chatbot}`)],
      ['an analyst token', (request) => request.set('Authorization', `Bearer ${tokens.analyst}`)],
      ['a revoked core token', (request) => request.set('Authorization', `Bearer ${tokens.revoked}`)],
      ['the core token in X-API-Token', (request) => request.set('X-API-Token', api.token)],
    ];
    it.each(credentials)('when called with %s, it answers 401 and changes nothing', async (_credential, authorize) => {
      const head = await api.head();

      expectAnswer(await authorize(call(valid())), 401, { success: false, error: 'Unauthorized', message: 'Invalid or missing Bearer token' });
      expect(await api.head()).toBe(head);
    });
  });

  it('when a token is used, the unused tokens of the same sale and kind still work', async () => {
    const first = api.mint('delivery-rdv', sale.saleId, { data: { provider: 'DPD', reference: 'DPD-1' } });
    const second = api.mint('delivery-rdv', sale.saleId, { data: { provider: 'DPD', reference: 'DPD-2' } });
    expect((await api.post(`/api/sale-delivery-rdv/${first}`)).status).toBe(200);

    expect((await api.post(`/api/sale-delivery-rdv/${second}`)).body).toMatchObject({ status: 'saved', delivery_appointment: { reference: 'DPD-2' } });
    expectRefused(await api.post(`/api/sale-delivery-rdv/${first}`), 409, 'action_token_used');
  });
});
