import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { SaleEvent, SaleProduct } from '../../../src/events/sales/events.ts';
import { at, onlyProduct, product, saleImported, type Command, type SaleImportedEvent } from './sale-fixtures.ts';

/** Lines imported before tracking numbers were allocated at import get theirs when their label is first asked for. */

const spec = deciderSpec(saleDecider);

const allocate = (saleProductId: number, trackingNumber = 'MC0000000001230'): Command<'AllocateTrackingNumber'> => ({
  type: 'AllocateTrackingNumber',
  saleProductId,
  trackingNumber,
  at,
});
const allocated = (sale: SaleImportedEvent, line: SaleProduct, trackingNumber = 'MC0000000001230'): SaleEvent => ({
  type: 'TrackingNumberAllocated',
  data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, supplier: 'supplier-b', trackingNumber, allocatedAt: at },
});
/** What the log holds for a label made before numbers were allocated at import. */
const legacyLabel = (sale: SaleImportedEvent, line: SaleProduct): SaleEvent => ({
  type: 'ShippingLabelCreated',
  data: {
    saleId: sale.data.saleId,
    saleProductId: line.saleProductId,
    supplier: 'supplier-b',
    carrier: line.carrier,
    trackingNumber: 'MC0000000000422',
    labelPath: 'labels/x.pdf',
    createdAt: at,
  },
});

describe('allocating the tracking number of a line imported without one', () => {
  it('when the line has none, records it with the line supplier', () => {
    const sale = saleImported({ products: [product({ supplier: 'supplier-b', carrier: 'DB Schenker' })] });
    const line = onlyProduct(sale);
    spec
      .given([sale])
      .when(allocate(line.saleProductId))
      .then([allocated(sale, line)]);
  });

  it('when the line already has one, is refused: the labels already printed carry it', () => {
    const sale = saleImported({ products: [product({ supplier: 'supplier-b' })] });
    const line = onlyProduct(sale);
    spec
      .given([sale, allocated(sale, line)])
      .when(allocate(line.saleProductId, 'MC0000000009993'))
      .thenRefused('tracking_number_exists');
  });

  it('when the line got its number from a label recorded before numbers were allocated at import, is refused', () => {
    const sale = saleImported({ products: [product({ supplier: 'supplier-b' })] });
    const line = onlyProduct(sale);
    spec
      .given([sale, legacyLabel(sale, line)])
      .when(allocate(line.saleProductId))
      .thenRefused('tracking_number_exists');
  });

  it('when the product ships from own stock, is refused: there is no supplier line', () => {
    const sale = saleImported({ products: [product({ supplier: null })] });
    spec
      .given([sale])
      .when(allocate(onlyProduct(sale).saleProductId))
      .thenRefused('no_supplier_line');
  });

  it('when the product is not in the sale, is refused', () => {
    const sale = saleImported();
    spec
      .given([sale])
      .when(allocate(onlyProduct(sale).saleProductId + 1))
      .thenRefused('unknown_product');
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec.given([]).when(allocate(1)).thenRefused('sale_not_found');
  });
});
