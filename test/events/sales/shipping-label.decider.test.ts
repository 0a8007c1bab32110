import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { SaleEvent, SaleProduct } from '../../../src/events/sales/events.ts';
import { at, onlyProduct, product, saleImported, type Command, type SaleImportedEvent } from './sale-fixtures.ts';

const spec = deciderSpec(saleDecider);

const createLabel = (saleProductId: number, trackingNumber = 'TRK000123'): Command<'CreateShippingLabel'> => ({
  type: 'CreateShippingLabel',
  data: { saleProductId, trackingNumber, labelPath: `labels/${trackingNumber}.pdf`, at },
});
const labelCreated = (sale: SaleImportedEvent, line: SaleProduct, trackingNumber = 'TRK000123'): SaleEvent => ({
  type: 'ShippingLabelCreated',
  data: {
    saleId: sale.data.saleId,
    saleProductId: line.saleProductId,
    supplier: 'supplier-b',
    carrier: line.carrier,
    trackingNumber,
    labelPath: `labels/${trackingNumber}.pdf`,
    createdAt: at,
  },
});

describe('creating the shipping label of a supplier line', () => {
  it('when the line has none, records it with the line supplier and carrier', () => {
    const sale = saleImported({ products: [product({ supplier: 'supplier-b', carrier: 'DB Schenker' })] });
    const line = onlyProduct(sale);
    spec.given([sale]).when(createLabel(line.saleProductId)).then([labelCreated(sale, line)]);
  });

  it('when the line already has one, is refused', () => {
    const sale = saleImported({ products: [product({ supplier: 'supplier-b' })] });
    const line = onlyProduct(sale);
    spec.given([sale, labelCreated(sale, line)]).when(createLabel(line.saleProductId, 'TRK000999')).thenRefused('label_exists');
  });

  it('when the product ships from own stock, is refused: there is no supplier line', () => {
    const sale = saleImported({ products: [product({ supplier: null })] });
    spec.given([sale]).when(createLabel(onlyProduct(sale).saleProductId)).thenRefused('no_supplier_line');
  });

  it('when the product is not in the sale, is refused', () => {
    const sale = saleImported();
    spec.given([sale]).when(createLabel(onlyProduct(sale).saleProductId + 1)).thenRefused('unknown_product');
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec.given([]).when(createLabel(1)).thenRefused('sale_not_found');
  });
});
