import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saleStreamName } from '../../../../src/events/sales/events.ts';
import { findSaleById } from '../../../../src/projections/sales/queries.ts';
import { expectAnswer, expectRefused, importOrder, shipSofa, start, startSaleActionsApi, type ImportedOrder, type SaleActionsApi } from './sale-actions-api.ts';
import { signedActionToken } from '../../../support/signed-action-token.ts';

const newAddress = {
  firstname: 'Claire',
  lastname: 'Martin',
  street: ['4 place Bellecour'],
  postcode: '69002',
  city: 'Lyon',
  country_id: 'FR',
  telephone: '+33612345678',
};

describe('POST /api/sale-address/{token}', () => {
  let api: SaleActionsApi;
  let sale: ImportedOrder;
  beforeEach(async () => {
    api = await startSaleActionsApi();
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  const addressToken = (address: Record<string, unknown> = newAddress) => api.mint('address', sale.saleId, { data: address });

  it('when nothing has shipped, the sale is delivered to the new address', async () => {
    const response = await api.post(`/api/sale-address/${addressToken()}`);

    expectAnswer(response, 200, {
      success: true,
      sale_id: sale.saleId,
      increment_id: '100004512',
      status: 'updated',
      shipping_address: newAddress,
      message: 'The shipping address is updated',
    });
    expect((await api.stream(saleStreamName(sale.incrementId))).at(-1)).toEqual({
      type: 'SaleAddressUpdated',
      data: { saleId: sale.saleId, shippingAddress: newAddress, updatedAt: start },
    });
    expect((await findSaleById(api.runtime.readStore, sale.saleId))?.shippingAddress).toEqual(newAddress);
  });

  it('when the token carries the address the sale already has, it answers unchanged and records no address', async () => {
    const current = (await findSaleById(api.runtime.readStore, sale.saleId))!.shippingAddress;

    const response = await api.post(`/api/sale-address/${addressToken(current)}`);

    expect(response.body).toMatchObject({ status: 'unchanged', message: 'The sale is already delivered to this address' });
    expect((await api.stream(saleStreamName(sale.incrementId))).map((event) => event.type)).not.toContain('SaleAddressUpdated');
  });

  it('when a product has shipped, it answers 409 already_shipped and records nothing', async () => {
    await shipSofa(api, sale);
    const head = await api.head();

    expectRefused(await api.post(`/api/sale-address/${addressToken()}`), 409, 'already_shipped', 'A product of the sale has already been shipped');
    expect(await api.head()).toBe(head);
    expect((await findSaleById(api.runtime.readStore, sale.saleId))?.shippingAddress.street).toEqual(['12 rue des Lilas', 'Bâtiment B']);
  });

  it('when the token is read from its link, the address it carries cannot be (the token is sealed)', async () => {
    const token = addressToken();
    const decoded = [0, 1, 2, 3].map((offset) => Buffer.from(token.slice(offset), 'base64url').toString('latin1')).join('\n');
    for (const part of ['Claire', 'Martin', 'Bellecour', '69002', 'Lyon', '+33612345678']) expect(decoded).not.toContain(part);
    expect(api.payloadOf(token).data).toEqual(newAddress);
  });

  it('when a link of the earlier signed format (readable, sent before tokens were sealed) is used, it still works, once', async () => {
    const iat = Math.floor(new Date(start).getTime() / 1000);
    const token = signedActionToken(
      { jti: randomUUID(), action: 'address', saleId: sale.saleId, data: newAddress, iat, exp: iat + 7 * 86_400 },
      api.runtime.tokenSecret,
    );

    expect((await api.post(`/api/sale-address/${token}`)).body).toMatchObject({ status: 'updated', shipping_address: newAddress });
    expectRefused(await api.post(`/api/sale-address/${token}`), 409, 'action_token_used', 'This action token has already been used');
  });

  it('when the token was used, a second use answers 409 action_token_used', async () => {
    const token = addressToken();
    expect((await api.post(`/api/sale-address/${token}`)).status).toBe(200);
    const head = await api.head();

    expectRefused(await api.post(`/api/sale-address/${token}`), 409, 'action_token_used', 'This action token has already been used');
    expect(await api.head()).toBe(head);
  });
});
