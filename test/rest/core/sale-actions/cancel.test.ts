import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionTokenStreamName } from '../../../../src/events/access/events.ts';
import { saleStreamName } from '../../../../src/events/sales/events.ts';
import { findSaleById } from '../../../../src/projections/sales/queries.ts';
import { expectAnswer, expectRefused, importOrder, shipSofa, startSaleActionsApi, type ImportedOrder, type SaleActionsApi } from './sale-actions-api.ts';

describe('POST /api/sale-cancel/{token}', () => {
  let api: SaleActionsApi;
  let sale: ImportedOrder;
  beforeEach(async () => {
    api = await startSaleActionsApi();
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  const saleEvents = async () => api.stream(saleStreamName(sale.incrementId));
  const refundsRecorded = async () => (await saleEvents()).filter((event) => event.type === 'RefundRequested');

  it('when the token names no product, the whole sale is cancelled and what was paid is refunded', async () => {
    const response = await api.post(`/api/sale-cancel/${api.mint('cancel', sale.saleId)}`);

    const [refund] = await refundsRecorded();
    expectAnswer(response, 200, {
      success: true,
      sale_id: sale.saleId,
      increment_id: '100004512',
      status: 'cancelled',
      cancelled_sale_product_ids: [sale.sofa, sale.table, sale.lamp],
      sale_cancelled: true,
      refund: { id: refund?.data.refundId, amount: 1407.8, currency: 'EUR', status: 'requested' },
      // Never invoiced: nothing to credit.
      credit_note: null,
      message: 'The cancellation is recorded',
    });
    expect((await saleEvents()).map((event) => event.type).filter((type) => type !== 'TrackingNumberAllocated')).toEqual([
      'SaleImported',
      'SaleProductCancelled',
      'SaleProductCancelled',
      'SaleProductCancelled',
      'SaleCancelled',
      'RefundRequested',
    ]);
    expect(refund?.data).toMatchObject({ amount: 1407.8, saleProductIds: [sale.sofa, sale.table, sale.lamp], reason: 'Cancelled through a cancellation link' });
    const document = await findSaleById(api.runtime.readStore, sale.saleId);
    expect(document?.status).toBe('cancelled');
    expect(document?.refunds).toMatchObject([{ refundId: refund?.data.refundId, amount: 1407.8, status: 'requested' }]);
  });

  it('when the token names products and a reason, only those are cancelled and refunded, for that reason', async () => {
    const token = api.mint('cancel', sale.saleId, { productIds: [sale.lamp], data: { reason: 'Changed my mind about the lamps' } });

    const response = await api.post(`/api/sale-cancel/${token}`);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'cancelled', cancelled_sale_product_ids: [sale.lamp], sale_cancelled: false, refund: { amount: 259.8 } });
    const [refund] = await refundsRecorded();
    expect(refund?.data).toMatchObject({ amount: 259.8, saleProductIds: [sale.lamp], reason: 'Changed my mind about the lamps' });
    const document = await findSaleById(api.runtime.readStore, sale.saleId);
    expect(document?.status).toBe('processing');
    expect(document?.products.map((product) => product.state)).toEqual(['pending', 'pending', 'cancelled']);
  });

  it('when the token was used, a second use answers 409 action_token_used and refunds nothing more', async () => {
    const token = api.mint('cancel', sale.saleId);
    expect((await api.post(`/api/sale-cancel/${token}`)).status).toBe(200);
    const head = await api.head();

    const again = await api.post(`/api/sale-cancel/${token}`);

    expectRefused(again, 409, 'action_token_used', 'This action token has already been used');
    expect(await api.head()).toBe(head);
    expect(await refundsRecorded()).toHaveLength(1);
  });

  it('when 30 requests use one token at once, exactly one cancels and one refund is recorded', { timeout: 60_000 }, async () => {
    const token = api.mint('cancel', sale.saleId);

    const responses = await Promise.all(Array.from({ length: 30 }, () => api.post(`/api/sale-cancel/${token}`)));

    const succeeded = responses.filter((response) => response.status === 200);
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.body).toMatchObject({ status: 'cancelled', sale_cancelled: true, refund: { amount: 1407.8 } });
    for (const response of responses.filter((candidate) => candidate.status !== 200)) expectRefused(response, 409, 'action_token_used');
    expect(await refundsRecorded()).toHaveLength(1);
    const refundsInTheStore = (await api.runtime.eventStore.readAll({ filter: { eventTypes: ['RefundRequested'] } })).length;
    expect(refundsInTheStore).toBe(1);
    expect((await api.stream(actionTokenStreamName(api.payloadOf(token).jti))).map((event) => event.type)).toEqual(['ActionTokenConsumed']);
  });

  it('when a product of the sale has shipped, cancelling the whole sale answers 409, records nothing and leaves the token unused', async () => {
    await shipSofa(api, sale);
    const token = api.mint('cancel', sale.saleId);
    const head = await api.head();

    const response = await api.post(`/api/sale-cancel/${token}`);

    expectRefused(response, 409, 'already_shipped', 'A product of the sale has already been shipped');
    expect(await api.head()).toBe(head);
    expect(await api.stream(actionTokenStreamName(api.payloadOf(token).jti))).toEqual([]);
  });

  it("when the token names a product that is not the sale's, it answers 404 and records nothing", async () => {
    const token = api.mint('cancel', sale.saleId, { productIds: [sale.lamp + 1000] });
    const head = await api.head();

    const response = await api.post(`/api/sale-cancel/${token}`);

    expectRefused(response, 404, 'unknown_product', `Not a product of the sale: ${sale.lamp + 1000}`);
    expect(await api.head()).toBe(head);
  });

  it('when the products were already cancelled, a fresh token answers unchanged and refunds nothing', async () => {
    expect((await api.post(`/api/sale-cancel/${api.mint('cancel', sale.saleId, { productIds: [sale.lamp] })}`)).status).toBe(200);

    const response = await api.post(`/api/sale-cancel/${api.mint('cancel', sale.saleId, { productIds: [sale.lamp] })}`);

    expectAnswer(response, 200, {
      success: true,
      sale_id: sale.saleId,
      increment_id: '100004512',
      status: 'unchanged',
      cancelled_sale_product_ids: [],
      sale_cancelled: false,
      refund: null,
      credit_note: null,
      message: 'Everything asked was already cancelled',
    });
    expect(await refundsRecorded()).toHaveLength(1);
  });
});
