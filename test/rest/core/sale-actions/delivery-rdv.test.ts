import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saleStreamName } from '../../../../src/events/sales/events.ts';
import { findSaleById } from '../../../../src/projections/sales/queries.ts';
import { expectAnswer, expectRefused, importOrder, start, startSaleActionsApi, type ImportedOrder, type SaleActionsApi } from './sale-actions-api.ts';

describe('POST /api/sale-delivery-rdv/{token}', () => {
  let api: SaleActionsApi;
  let sale: ImportedOrder;
  beforeEach(async () => {
    api = await startSaleActionsApi();
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  it("when the sale is open, the delivery service's appointment is recorded with its date and time window", async () => {
    const token = api.mint('delivery-rdv', sale.saleId, {
      data: { provider: 'Geodis', reference: 'GEO-2026-884512', date: '2026-10-14', timeWindow: '08:00-12:00' },
    });

    const response = await api.post(`/api/sale-delivery-rdv/${token}`);

    expectAnswer(response, 200, {
      success: true,
      sale_id: sale.saleId,
      increment_id: '100004512',
      status: 'saved',
      delivery_appointment: { provider: 'Geodis', reference: 'GEO-2026-884512', date: '2026-10-14', time_window: '08:00-12:00' },
      message: 'The delivery service appointment is saved',
    });
    expect((await api.stream(saleStreamName(sale.incrementId))).at(-1)).toEqual({
      type: 'DeliveryServiceAppointmentSaved',
      data: { saleId: sale.saleId, provider: 'Geodis', reference: 'GEO-2026-884512', date: '2026-10-14', timeWindow: '08:00-12:00', savedAt: start },
    });
    expect((await findSaleById(api.runtime.readStore, sale.saleId))?.deliveryServiceAppointment).toEqual({
      provider: 'Geodis',
      reference: 'GEO-2026-884512',
      date: '2026-10-14',
      timeWindow: '08:00-12:00',
      savedAt: start,
    });
  });

  it("when the token carries only the provider's reference, date and time window are recorded as unknown", async () => {
    const response = await api.post(`/api/sale-delivery-rdv/${api.mint('delivery-rdv', sale.saleId, { data: { provider: 'DPD', reference: 'DPD-1' } })}`);

    expect(response.body).toMatchObject({ status: 'saved', delivery_appointment: { provider: 'DPD', reference: 'DPD-1', date: null, time_window: null } });
    expect((await findSaleById(api.runtime.readStore, sale.saleId))?.deliveryServiceAppointment).toMatchObject({ date: null, timeWindow: null });
  });

  it('when the sale is cancelled, it answers 409 sale_cancelled and records nothing', async () => {
    await api.post(`/api/sale-cancel/${api.mint('cancel', sale.saleId)}`);
    const head = await api.head();

    const response = await api.post(`/api/sale-delivery-rdv/${api.mint('delivery-rdv', sale.saleId, { data: { provider: 'DPD', reference: 'DPD-1' } })}`);

    expectRefused(response, 409, 'sale_cancelled', 'The sale is cancelled');
    expect(await api.head()).toBe(head);
  });

  it('when the token was used, a second use answers 409 action_token_used', async () => {
    const token = api.mint('delivery-rdv', sale.saleId, { data: { provider: 'DPD', reference: 'DPD-1' } });
    expect((await api.post(`/api/sale-delivery-rdv/${token}`)).status).toBe(200);

    expectRefused(await api.post(`/api/sale-delivery-rdv/${token}`), 409, 'action_token_used');
  });
});
