import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { ImportSale } from '../../../src/events/sales/commands.ts';
import type { SaleEvent } from '../../../src/events/sales/events.ts';
import { at, product, saleImported, type SaleImportedEvent } from './sale-fixtures.ts';

const spec = deciderSpec(saleDecider);

/** The number each supplier line of the sale is imported with, in these specs. */
const trackingNumberOf = (saleProductId: number): string => `MC${String(saleProductId).padStart(12, '0')}0`;

const importOf = (
  sale: SaleImportedEvent,
  trackingNumbers = sale.data.products.flatMap((line) => (line.supplier === null ? [] : [line.saleProductId])),
): ImportSale => {
  const { importedAt: _importedAt, ...data } = sale.data;
  return {
    type: 'ImportSale',
    ...data,
    trackingNumbers: trackingNumbers.map((saleProductId) => ({ saleProductId, trackingNumber: trackingNumberOf(saleProductId) })),
    at,
  };
};

const allocated = (sale: SaleImportedEvent, index: number): SaleEvent => {
  const line = sale.data.products[index]!;
  if (line.supplier === null) throw new Error('an own-stock product has no line');
  return {
    type: 'TrackingNumberAllocated',
    data: {
      saleId: sale.data.saleId,
      saleProductId: line.saleProductId,
      supplier: line.supplier,
      trackingNumber: trackingNumberOf(line.saleProductId),
      allocatedAt: at,
    },
  };
};

describe('importing a sale', () => {
  it('when the order is new, records the sale as imported now, its supplier line with its tracking number', () => {
    const sale = saleImported();
    spec
      .given([])
      .when(importOf(sale))
      .then([{ type: 'SaleImported', data: { ...sale.data, importedAt: at } }, allocated(sale, 0)]);
  });

  it('when the order has lines of both suppliers and one from own stock, each supplier line gets its number, in the order of the products', () => {
    const sale = saleImported({
      products: [product({ supplier: 'supplier-b', carrier: 'DB Schenker' }), product({ supplier: null, carrier: null }), product({ supplier: 'supplier-a' })],
    });
    spec
      .given([])
      .when(importOf(sale))
      .then([{ type: 'SaleImported', data: { ...sale.data, importedAt: at } }, allocated(sale, 0), allocated(sale, 2)]);
  });

  it('when every product ships from own stock, records the sale alone', () => {
    const sale = saleImported({ products: [product({ supplier: null, carrier: null })] });
    spec
      .given([])
      .when(importOf(sale))
      .then([{ type: 'SaleImported', data: { ...sale.data, importedAt: at } }]);
  });

  it('when a supplier line comes without a tracking number, is refused: no line is created without one', () => {
    const sale = saleImported({ products: [product({ supplier: 'supplier-a' }), product({ supplier: 'supplier-b' })] });
    spec
      .given([])
      .when(importOf(sale, [sale.data.products[0]!.saleProductId]))
      .thenRefused('tracking_number_missing');
  });

  it('when the order was already imported, nothing happens', () => {
    const sale = saleImported();
    spec.given([sale]).when(importOf(sale)).thenNothingHappens();
  });

  it('when the order was already imported with other IDs, nothing happens and the recorded sale stands', () => {
    const recorded = saleImported();
    const again = saleImported({ incrementId: recorded.data.incrementId });
    spec.given([recorded]).when(importOf(again)).thenNothingHappens();
  });
});
