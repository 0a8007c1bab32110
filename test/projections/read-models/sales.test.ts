import { describe, expect, it } from 'vitest';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { findSaleById, findSaleByIncrementId } from '../../../src/projections/sales/queries.ts';
import { salesProjection } from '../../../src/projections/sales/sales-projection.ts';
import { eventLog } from './event-log.ts';
import { project } from './project.ts';
import { address, cushion, fridge, saleImported, sofa } from './sale-fixtures.ts';
import { buildScenario, mainSale, savId, timezone } from './scenario.ts';

const projections = [salesProjection({ timezone })];

describe('sales read model', () => {
  it('when a sale has been imported and worked on, the document tells its whole state', async () => {
    const store = await openTestReadStore();
    await project(store, projections, buildScenario().events);

    const sale = await findSaleById(store, mainSale.saleId);

    expect(sale).toEqual({
      _id: 101,
      _position: expect.any(Number),
      incrementId: '100000101',
      status: 'processing',
      source: 'shop',
      orderedAt: '2025-03-09T23:30:00Z',
      orderDate: '2025-03-10',
      currency: 'EUR',
      customer: { email: 'Marie.Curie@Example.fr', emailLower: 'marie.curie@example.fr', firstname: 'Marie', lastname: 'Curie', phone: '0102030405' },
      shippingAddress: address('2 rue des Écoles'),
      billingAddress: null,
      payment: { method: 'card', status: 'paid', amountPaid: 1815 },
      shippingAmount: 14,
      grandTotal: 1815,
      products: [
        {
          ...sofa,
          carrier: 'colissimo',
          state: 'shipped',
          acknowledgedAt: '2025-03-10T09:00:00+01:00',
          preparedAt: '2025-03-11T15:00:00+01:00',
          cancelledAt: null,
          trackingNumber: '6A123',
          labelPath: 'labels/100000101_1001.pdf',
          refusal: null,
          supplierTracking: null,
        },
        {
          ...fridge,
          state: 'cancelled',
          acknowledgedAt: null,
          preparedAt: null,
          cancelledAt: '2025-03-12T10:00:00+01:00',
          trackingNumber: 'MC0000000000422',
          labelPath: 'labels/supplier-b/100000101_1002.pdf',
          refusal: null,
          supplierTracking: null,
        },
        {
          ...cushion,
          state: 'pending',
          acknowledgedAt: null,
          preparedAt: null,
          cancelledAt: null,
          trackingNumber: null,
          labelPath: null,
          refusal: null,
          supplierTracking: null,
        },
      ],
      refunds: [
        {
          refundId: 55,
          amount: 901,
          currency: 'EUR',
          reason: 'changed mind',
          saleProductIds: [1002],
          status: 'paid',
          requestedAt: '2025-03-12T10:00:00+01:00',
          paidAt: '2025-03-13T10:00:00+01:00',
        },
      ],
      deliveryAppointment: { planningType: 'delivery', date: '2025-03-18', time: '09:00', scheduledAt: '2025-03-12T11:00:00+01:00' },
      deliveryServiceAppointment: {
        provider: 'geodis',
        reference: 'GEO-1',
        date: '2025-03-18',
        timeWindow: '08:00-12:00',
        savedAt: '2025-03-12T12:00:00+01:00',
      },
      savIds: [savId],
      erasureKeyId: null,
      importedAt: '2025-03-10T08:00:00+01:00',
      cancelledAt: null,
      // The instant of the last change recorded, the delivery service's appointment.
      updatedAt: '2025-03-12T12:00:00+01:00',
    });
    expect(await findSaleByIncrementId(store, '100000101')).toEqual(sale);
    expect(await findSaleByIncrementId(store, '999')).toBeNull();
  });

  it('when an order is placed late in the evening in UTC, its date is the day in the planning time zone', async () => {
    const store = await openTestReadStore();
    const log = eventLog();
    saleImported(log, { saleId: 1, incrementId: '1', orderedAt: '2025-07-01T22:15:00Z', products: [cushion] });
    saleImported(log, { saleId: 2, incrementId: '2', orderedAt: '2025-07-01T21:15:00Z', products: [cushion] });
    await project(store, projections, log.events);

    expect((await findSaleById(store, 1))?.orderDate).toBe('2025-07-02');
    expect((await findSaleById(store, 2))?.orderDate).toBe('2025-07-01');
  });
});

describe('sale status', () => {
  const statusAfter = async (steps: (log: ReturnType<typeof eventLog>) => void): Promise<string | undefined> => {
    const store = await openTestReadStore();
    const log = eventLog();
    saleImported(log, { saleId: 1, incrementId: '1', orderedAt: '2025-03-10T10:00:00+01:00', products: [sofa, cushion] });
    steps(log);
    await project(store, projections, log.events);
    return (await findSaleById(store, 1))?.status;
  };
  const ship = (log: ReturnType<typeof eventLog>, saleProductId: number) =>
    log.record('sale-1', {
      type: 'SaleProductShipped',
      data: { saleId: 1, saleProductId, supplier: null, preparedAt: '2025-03-11T10:00:00+01:00', logUser: 'cron' },
    });
  const cancel = (log: ReturnType<typeof eventLog>, saleProductId: number) =>
    log.record('sale-1', { type: 'SaleProductCancelled', data: { saleId: 1, saleProductId, reason: 'r', cancelledAt: '2025-03-11T10:00:00+01:00' } });

  it('when nothing has shipped, the sale is processing', async () => {
    expect(await statusAfter(() => {})).toBe('processing');
  });

  it('when every product is acknowledged but one is not shipped, the sale is processing', async () => {
    expect(
      await statusAfter((log) => {
        log.record('sale-1', {
          type: 'SaleProductAcknowledged',
          data: { saleId: 1, saleProductId: 1001, supplier: 'supplier-a', acknowledgedAt: '2025-03-11T09:00:00+01:00' },
        });
        ship(log, 1001);
      }),
    ).toBe('processing');
  });

  it('when every product has shipped, the sale is complete', async () => {
    expect(await statusAfter((log) => (ship(log, 1001), ship(log, 1003)))).toBe('complete');
  });

  it('when some products shipped and the others were cancelled, the sale is complete', async () => {
    expect(await statusAfter((log) => (ship(log, 1001), cancel(log, 1003)))).toBe('complete');
  });

  it('when every product was cancelled, the sale is cancelled', async () => {
    expect(
      await statusAfter((log) => {
        cancel(log, 1001);
        cancel(log, 1003);
        log.record('sale-1', { type: 'SaleCancelled', data: { saleId: 1, reason: 'r', cancelledAt: '2025-03-11T10:00:00+01:00' } });
      }),
    ).toBe('cancelled');
  });
});
