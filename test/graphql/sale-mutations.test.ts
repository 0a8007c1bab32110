import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyActionToken } from '../../src/events/access/action-token.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { cancelSale } from '../../src/events/sales/cancel-sale.ts';
import { now, startGraphqlApi, type GraphqlApi } from './graphql-api.ts';
import { importOrder, seedCatalog } from './seed.ts';

describe('the sale mutations', () => {
  let api: GraphqlApi;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  beforeEach(async () => {
    api = await startGraphqlApi();
    await seedCatalog(api);
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  describe('markRefundPaid', () => {
    let refundId: number;
    beforeEach(async () => {
      const cancelled = await cancelSale(api.runtime.salesDeps, { incrementId: '100004512', saleProductIds: [sale.lamp], reason: 'Rupture' }, systemContext());
      if (cancelled.status !== 'cancelled' || cancelled.refund === null) throw new Error('expected a refund');
      refundId = cancelled.refund.refundId;
    });

    it('when a requested refund is marked paid, the sale shows it paid; marking it again changes nothing', async () => {
      const mark = `mutation { markRefundPaid(incrementId: "100004512", refundId: ${refundId}) { status } }`;
      expect(await api.staffData(mark)).toEqual({ markRefundPaid: { status: 'paid' } });
      const { sale: found } = await api.data(`{ sale(id: ${sale.saleId}) { refunds { refundId amount status paidAt } } }`);
      expect(found.refunds).toEqual([{ refundId, amount: 259.8, status: 'paid', paidAt: '2026-10-05T10:00:00+02:00' }]);

      const head = await api.runtime.eventStore.headPosition();
      expect(await api.staffData(mark)).toEqual({ markRefundPaid: { status: 'unchanged' } });
      expect(await api.runtime.eventStore.headPosition()).toBe(head);
    });

    it('when the refund or the sale is unknown, the error carries the refusal code and nothing is recorded', async () => {
      const head = await api.runtime.eventStore.headPosition();
      const unknownRefund = await api.post(
        `mutation { markRefundPaid(incrementId: "100004512", refundId: ${refundId + 1000}) { status } }`,
        undefined,
        api.staffToken,
      );
      const unknownSale = await api.post(`mutation { markRefundPaid(incrementId: "999999999", refundId: ${refundId}) { status } }`, undefined, api.staffToken);
      expect(unknownRefund.body.errors[0]).toMatchObject({
        message: 'No such refund for the sale',
        extensions: { code: 'UNKNOWN_REFUND', details: { refundId: refundId + 1000 } },
      });
      expect(unknownSale.body.errors[0]).toMatchObject({ message: 'No such sale', extensions: { code: 'SALE_NOT_FOUND' } });
      expect(await api.runtime.eventStore.headPosition()).toBe(head);
    });
  });

  describe('mintActionToken', () => {
    it('when an appointment token is minted, it verifies with the service’s secret and carries the sale, the action and the slot', async () => {
      const { mintActionToken: minted } = await api.staffData(
        `mutation($data: JSON) { mintActionToken(action: rdv, saleId: ${sale.saleId}, data: $data) { token jti action saleId expiresAt } }`,
        { data: { date: '2026-10-08', time: '10:00' } },
      );
      expect(minted).toMatchObject({ action: 'rdv', saleId: sale.saleId, expiresAt: '2026-10-08T10:00:00+02:00' });
      const verified = verifyActionToken(minted.token, api.runtime.tokenSecret, new Date(now));
      expect(verified).toEqual({
        ok: true,
        payload: expect.objectContaining({ jti: minted.jti, action: 'rdv', saleId: sale.saleId, data: { date: '2026-10-08', time: '10:00' } }),
      });
    });

    it('when a delivery-rdv token is minted with its data inline, the kind is spelled delivery_rdv', async () => {
      const { mintActionToken: minted } = await api.staffData(
        `mutation { mintActionToken(action: delivery_rdv, saleId: ${sale.saleId}, data: { provider: "Geodis", reference: "GX-1" }, ttlSeconds: 60) { token action expiresAt } }`,
      );
      expect(minted).toMatchObject({ action: 'delivery_rdv', expiresAt: '2026-10-05T10:01:00+02:00' });
      expect(verifyActionToken(minted.token, api.runtime.tokenSecret, new Date(now))).toMatchObject({ ok: true, payload: { action: 'delivery-rdv' } });
    });

    it('when the sale is unknown, the data breaks the kind’s rules or a product is not the sale’s, a coded error names the cause', async () => {
      const unknownSale = await api.post('mutation { mintActionToken(action: invoice, saleId: 999999) { token } }', undefined, api.staffToken);
      const badData = await api.post(
        `mutation { mintActionToken(action: rdv, saleId: ${sale.saleId}, data: { date: "demain", time: "10:00" }) { token } }`,
        undefined,
        api.staffToken,
      );
      const stranger = await api.post(
        `mutation { mintActionToken(action: cancel, saleId: ${sale.saleId}, productIds: [999999]) { token } }`,
        undefined,
        api.staffToken,
      );
      expect(unknownSale.body.errors[0]).toMatchObject({ message: 'Sale 999999 not found', extensions: { code: 'NOT_FOUND' } });
      expect(badData.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/^data\.date: /),
        extensions: { code: 'BAD_USER_INPUT', field: 'data.date' },
      });
      expect(stranger.body.errors[0]).toMatchObject({
        message: `productIds: not products of sale ${sale.saleId}: 999999`,
        extensions: { code: 'BAD_USER_INPUT' },
      });
    });
  });
});
