import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allocateTrackingNumber } from '../../../src/events/sales/allocate-tracking-number.ts';
import { cancelSale } from '../../../src/events/sales/cancel-sale.ts';
import { importSale, type ImportSaleResult } from '../../../src/events/sales/import-sale.ts';
import { markRefundPaid } from '../../../src/events/sales/refunds.ts';
import { serviceOrderId } from '../../../src/events/sales/service-order-id.ts';
import { shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import { updateSaleAddress } from '../../../src/events/sales/update-address.ts';
import { saveDeliveryServiceAppointment } from '../../../src/events/sales/delivery-appointment.ts';
import { address } from './sale-fixtures.ts';
import { anOrder, openSalesHarness, type SalesHarness } from './sales-harness.ts';

describe('changing an imported sale through its handlers', () => {
  let harness: SalesHarness;
  let sale: ImportSaleResult;
  beforeEach(async () => {
    harness = await openSalesHarness();
    sale = await importSale(harness.deps, anOrder(), harness.context);
  });
  afterEach(async () => {
    await harness.close();
  });

  const eventTypes = async () => (await harness.saleEvents(sale.incrementId)).map((event) => event.type);

  it('when the whole paid sale is cancelled twice, cancels and refunds once, and answers the second time unchanged', async () => {
    const first = await cancelSale(harness.deps, { incrementId: sale.incrementId, reason: 'customer request' }, harness.context);
    const second = await cancelSale(harness.deps, { incrementId: sale.incrementId, reason: 'customer request' }, harness.context);

    expect(first).toMatchObject({
      status: 'cancelled',
      cancelledSaleProductIds: sale.saleProductIds,
      saleCancelled: true,
      refund: { refundId: expect.any(Number), amount: 908.8, currency: 'EUR' },
    });
    expect(second).toEqual({ status: 'unchanged' });
    expect(await eventTypes()).toEqual([
      'SaleImported',
      'TrackingNumberAllocated',
      'SaleProductCancelled',
      'SaleProductCancelled',
      'SaleCancelled',
      'RefundRequested',
    ]);
  });

  it('when a refund is marked paid twice, records it once', async () => {
    const cancelled = await cancelSale(
      harness.deps,
      { incrementId: sale.incrementId, saleProductIds: [sale.saleProductIds[1] as number], reason: 'broken' },
      harness.context,
    );
    if (cancelled.status !== 'cancelled' || !cancelled.refund) throw new Error('expected a refund');
    const { refundId } = cancelled.refund;
    expect(cancelled.refund.amount).toBe(259.8);

    expect(await markRefundPaid(harness.deps, { incrementId: sale.incrementId, refundId }, harness.context)).toMatchObject({ status: 'paid' });
    expect(await markRefundPaid(harness.deps, { incrementId: sale.incrementId, refundId }, harness.context)).toEqual({ status: 'unchanged' });
    expect((await eventTypes()).filter((type) => type === 'RefundPaid')).toHaveLength(1);
  });

  it('when cancelling names a product of another sale, is refused and writes nothing', async () => {
    const before = await harness.store.readStream(`sale-${sale.incrementId}`);
    const result = await cancelSale(
      harness.deps,
      { incrementId: sale.incrementId, saleProductIds: [(sale.saleProductIds[1] as number) + 1000], reason: 'x' },
      harness.context,
    );
    expect(result).toMatchObject({ status: 'refused', refusal: { code: 'unknown_product' } });
    expect(await harness.store.readStream(`sale-${sale.incrementId}`)).toEqual(before);
  });

  it('when the address changes, then is sent again, then a product has shipped, answers updated, unchanged, refused', async () => {
    const moved = address({ street: ['3 place Bellecour'], postcode: '69002' });
    expect(await updateSaleAddress(harness.deps, { incrementId: sale.incrementId, shippingAddress: moved }, harness.context)).toMatchObject({
      status: 'updated',
    });
    expect(await updateSaleAddress(harness.deps, { incrementId: sale.incrementId, shippingAddress: moved }, harness.context)).toEqual({ status: 'unchanged' });

    await shipSupplierLine(
      harness.deps,
      { serviceOrderId: serviceOrderId(sale.incrementId, sale.saleProductIds[0] as number), supplier: 'supplier-a' },
      harness.context,
    );
    expect(await updateSaleAddress(harness.deps, { incrementId: sale.incrementId, shippingAddress: address() }, harness.context)).toMatchObject({
      status: 'refused',
      refusal: { code: 'already_shipped' },
    });
  });

  it('when a tracking number is asked for a line imported with one, answers the one it was imported with and records nothing', async () => {
    const line = { incrementId: sale.incrementId, saleProductId: sale.saleProductIds[0] as number };
    const before = await harness.store.readStream(`sale-${sale.incrementId}`);
    const imported = (await harness.saleEvents(sale.incrementId)).find((event) => event.type === 'TrackingNumberAllocated');

    expect(await allocateTrackingNumber(harness.deps, line, harness.context)).toEqual({
      status: 'existing',
      trackingNumber: imported?.type === 'TrackingNumberAllocated' ? imported.data.trackingNumber : 'none',
    });
    expect(await harness.store.readStream(`sale-${sale.incrementId}`)).toEqual(before);
  });

  it('when a delivery-service appointment is saved twice, answers saved then unchanged', async () => {
    const appointment = { incrementId: sale.incrementId, provider: 'Relais Express', reference: 'RX-1', date: '2026-10-14', timeWindow: '08:00-12:00' };
    expect(await saveDeliveryServiceAppointment(harness.deps, appointment, harness.context)).toMatchObject({ status: 'saved' });
    expect(await saveDeliveryServiceAppointment(harness.deps, appointment, harness.context)).toEqual({ status: 'unchanged' });
  });

  it('when the sale is unknown, changes are refused as not found', async () => {
    const result = await updateSaleAddress(harness.deps, { incrementId: '1', shippingAddress: address() }, harness.context);
    expect(result).toMatchObject({ status: 'refused', refusal: { code: 'sale_not_found' } });
  });
});
