import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/events/decider.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { SaleEvent } from '../../../src/events/sales/events.ts';
import { saleStatus, type Sale } from '../../../src/events/sales/state.ts';
import { address, at, cancelled, later, onlyProduct, product, saleImported, shipped } from './sale-fixtures.ts';

const saleOf = (events: readonly SaleEvent[]): Sale => {
  const state = fold(saleDecider, events);
  if (state === null) throw new Error('expected a sale');
  return state;
};

describe('the status of a sale', () => {
  const first = product();
  const second = product();
  const sale = saleImported({ products: [first, second] });

  it('when a product is neither shipped nor cancelled, is processing', () => {
    expect(saleStatus(saleOf([sale, shipped(sale, first)]))).toBe('processing');
  });

  it('when every product is shipped, is complete', () => {
    expect(saleStatus(saleOf([sale, shipped(sale, first), shipped(sale, second)]))).toBe('complete');
  });

  it('when every product is shipped or cancelled, is complete', () => {
    expect(saleStatus(saleOf([sale, shipped(sale, first), cancelled(sale, second)]))).toBe('complete');
  });

  it('when every product is cancelled, is cancelled', () => {
    expect(saleStatus(saleOf([sale, cancelled(sale, first), cancelled(sale, second)]))).toBe('cancelled');
  });

  it('when just imported, is processing', () => {
    expect(saleStatus(saleOf([sale]))).toBe('processing');
  });
});

describe('the state of a sale', () => {
  it('when nothing was imported, is null', () => {
    expect(fold(saleDecider, [])).toBeNull();
  });

  it('when its history is told, holds what queries and other decisions read', () => {
    const line = product({ supplier: 'supplier-b' });
    const sale = saleImported({ products: [line] });
    const { saleId } = sale.data;
    const moved = address({ city: 'Villeurbanne', postcode: '69100' });
    const state = saleOf([
      sale,
      { type: 'SaleAddressUpdated', data: { saleId, shippingAddress: moved, updatedAt: at } },
      { type: 'SaleProductAcknowledged', data: { saleId, saleProductId: line.saleProductId, supplier: 'supplier-b', acknowledgedAt: at } },
      {
        type: 'ShippingLabelCreated',
        data: {
          saleId,
          saleProductId: line.saleProductId,
          supplier: 'supplier-b',
          carrier: null,
          trackingNumber: 'T1',
          labelPath: 'labels/T1.pdf',
          createdAt: at,
        },
      },
      shipped(sale, line, later),
      {
        type: 'SaleDeliveryAppointmentScheduled',
        data: { saleId, planningType: 'delivery', date: '2026-10-12', time: '09:00', previous: null, scheduledAt: at },
      },
      { type: 'DeliveryServiceAppointmentSaved', data: { saleId, provider: 'Relais Express', reference: 'RX-1', date: null, timeWindow: null, savedAt: at } },
      {
        type: 'RefundRequested',
        data: { saleId, refundId: 7, amount: 10, currency: 'EUR', reason: 'goodwill', saleProductIds: [line.saleProductId], requestedAt: at },
      },
      {
        type: 'RefundRequested',
        data: { saleId, refundId: 8, amount: 5, currency: 'EUR', reason: 'goodwill', saleProductIds: [line.saleProductId], requestedAt: at },
      },
      { type: 'RefundPaid', data: { saleId, refundId: 7, paidAt: later } },
    ]);

    expect(state).toMatchObject({
      saleId,
      incrementId: sale.data.incrementId,
      customer: sale.data.customer,
      shippingAddress: moved,
      currency: 'EUR',
      orderedAt: sale.data.orderedAt,
      payment: sale.data.payment,
      cancelledAt: null,
      deliveryAppointment: { planningType: 'delivery', date: '2026-10-12', time: '09:00', scheduledAt: at },
      deliveryServiceAppointment: { provider: 'Relais Express', reference: 'RX-1', date: null, timeWindow: null, savedAt: at },
    });
    expect(state.products).toEqual([
      { ...line, acknowledgedAt: at, preparedAt: later, cancelledAt: null, trackingNumber: 'T1', refusal: null, supplierTracking: null },
    ]);
    expect(state.refunds.map(({ refundId, status, paidAt }) => ({ refundId, status, paidAt }))).toEqual([
      { refundId: 7, status: 'paid', paidAt: later },
      { refundId: 8, status: 'requested', paidAt: null },
    ]);
  });

  it('when its lines were imported with their tracking numbers, holds each line with its number', () => {
    const line = product({ supplier: 'supplier-a' });
    const own = product({ supplier: null, carrier: null });
    const sale = saleImported({ products: [line, own] });
    const state = saleOf([
      sale,
      {
        type: 'TrackingNumberAllocated',
        data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, supplier: 'supplier-a', trackingNumber: 'MC0000000000422', allocatedAt: at },
      },
    ]);
    expect(state.products.map((p) => p.trackingNumber)).toEqual(['MC0000000000422', null]);
  });

  it('when the whole sale is cancelled, holds when', () => {
    const sale = saleImported();
    const state = saleOf([
      sale,
      cancelled(sale, onlyProduct(sale)),
      { type: 'SaleCancelled', data: { saleId: sale.data.saleId, reason: 'customer request', cancelledAt: later } },
    ]);
    expect(state.cancelledAt).toBe(later);
    expect(state.products[0]?.cancelledAt).toBe(at);
  });
});
