import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { SaleEvent } from '../../../src/events/sales/events.ts';
import { at, cancelled, later, onlyProduct, product, saleImported, shipped, type Command, type SaleImportedEvent } from './sale-fixtures.ts';

const spec = deciderSpec(saleDecider);

const schedule = (date: string, time: string, expectedPrevious?: { date: string; time: string } | null): Command<'ScheduleSaleDeliveryAppointment'> => ({
  type: 'ScheduleSaleDeliveryAppointment',
  date,
  time,
  ...(expectedPrevious !== undefined ? { expectedPrevious } : {}),
  at,
});
const scheduled = (sale: SaleImportedEvent, date: string, time: string, previous: { date: string; time: string } | null, scheduledAt = at): SaleEvent => ({
  type: 'SaleDeliveryAppointmentScheduled',
  data: { saleId: sale.data.saleId, planningType: 'delivery', date, time, previous, scheduledAt },
});

describe('scheduling the delivery appointment of a sale', () => {
  it('when the sale has none yet, records it with no previous one', () => {
    const sale = saleImported();
    spec
      .given([sale])
      .when(schedule('2026-10-12', '09:00'))
      .then([scheduled(sale, '2026-10-12', '09:00', null)]);
  });

  it('when the sale has one, records the new one with the one it replaces', () => {
    const sale = saleImported();
    spec
      .given([sale, scheduled(sale, '2026-10-12', '09:00', null)])
      .when(schedule('2026-10-13', '14:00'))
      .then([scheduled(sale, '2026-10-13', '14:00', { date: '2026-10-12', time: '09:00' })]);
  });

  it('when the same appointment is asked again, nothing happens', () => {
    const sale = saleImported();
    spec
      .given([sale, scheduled(sale, '2026-10-12', '09:00', null)])
      .when(schedule('2026-10-12', '09:00'))
      .thenNothingHappens();
  });

  it('when the appointment it was booked against is still the current one, records the new one', () => {
    const sale = saleImported();
    spec
      .given([sale, scheduled(sale, '2026-10-12', '09:00', null)])
      .when(schedule('2026-10-13', '14:00', { date: '2026-10-12', time: '09:00' }))
      .then([scheduled(sale, '2026-10-13', '14:00', { date: '2026-10-12', time: '09:00' })]);
  });

  it('when the appointment changed since it was booked against, is refused', () => {
    const sale = saleImported();
    spec
      .given([sale, scheduled(sale, '2026-10-12', '09:00', null)])
      .when(schedule('2026-10-13', '14:00', null))
      .thenRefused('appointment_changed');
  });

  it('when some products are shipped and others are not, records it', () => {
    const first = product();
    const sale = saleImported({ products: [first, product()] });
    spec
      .given([sale, shipped(sale, first)])
      .when(schedule('2026-10-12', '09:00'))
      .then([scheduled(sale, '2026-10-12', '09:00', null)]);
  });

  it('when every product is shipped, is refused', () => {
    const sale = saleImported();
    spec
      .given([sale, shipped(sale, onlyProduct(sale))])
      .when(schedule('2026-10-12', '09:00'))
      .thenRefused('not_schedulable');
  });

  it('when the sale is cancelled, is refused', () => {
    const sale = saleImported();
    spec
      .given([sale, cancelled(sale, onlyProduct(sale))])
      .when(schedule('2026-10-12', '09:00'))
      .thenRefused('not_schedulable');
  });

  it('when one product is shipped and the other cancelled, nothing is left to deliver and it is refused', () => {
    const first = product();
    const second = product();
    const sale = saleImported({ products: [first, second] });
    spec
      .given([sale, shipped(sale, first), cancelled(sale, second)])
      .when(schedule('2026-10-12', '09:00'))
      .thenRefused('not_schedulable');
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec.given([]).when(schedule('2026-10-12', '09:00')).thenRefused('sale_not_found');
  });
});

describe('saving a delivery-service appointment', () => {
  const save = (
    reference: string,
    date: string | null = '2026-10-14',
    timeWindow: string | null = '08:00-12:00',
  ): Command<'SaveDeliveryServiceAppointment'> => ({
    type: 'SaveDeliveryServiceAppointment',
    provider: 'Relais Express',
    reference,
    date,
    timeWindow,
    at,
  });
  const saved = (sale: SaleImportedEvent, reference: string, savedAt = at): SaleEvent => ({
    type: 'DeliveryServiceAppointmentSaved',
    data: { saleId: sale.data.saleId, provider: 'Relais Express', reference, date: '2026-10-14', timeWindow: '08:00-12:00', savedAt },
  });

  it('when the sale is open, records it', () => {
    const sale = saleImported();
    spec
      .given([sale])
      .when(save('RX-1'))
      .then([saved(sale, 'RX-1')]);
  });

  it('when the provider gave the date and window later, records them', () => {
    const sale = saleImported();
    spec
      .given([
        sale,
        {
          type: 'DeliveryServiceAppointmentSaved',
          data: { saleId: sale.data.saleId, provider: 'Relais Express', reference: 'RX-1', date: null, timeWindow: null, savedAt: at },
        },
      ])
      .when(save('RX-1'))
      .then([saved(sale, 'RX-1')]);
  });

  it('when the same appointment is saved again, nothing happens', () => {
    const sale = saleImported();
    spec
      .given([sale, saved(sale, 'RX-1', later)])
      .when(save('RX-1'))
      .thenNothingHappens();
  });

  it('when another reference is saved, records it', () => {
    const sale = saleImported();
    spec
      .given([sale, saved(sale, 'RX-1')])
      .when(save('RX-2'))
      .then([saved(sale, 'RX-2')]);
  });

  it('when every product is shipped, still records it', () => {
    const sale = saleImported();
    spec
      .given([sale, shipped(sale, onlyProduct(sale))])
      .when(save('RX-1'))
      .then([saved(sale, 'RX-1')]);
  });

  it('when the sale is cancelled, is refused', () => {
    const sale = saleImported();
    spec
      .given([sale, cancelled(sale, onlyProduct(sale))])
      .when(save('RX-1'))
      .thenRefused('sale_cancelled');
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec.given([]).when(save('RX-1')).thenRefused('sale_not_found');
  });
});
