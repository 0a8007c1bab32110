import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { SaleEvent } from '../../../src/events/sales/events.ts';
import { at, cancelled, onlyProduct, product, saleImported, shipped, type Command, type SaleImportedEvent } from './sale-fixtures.ts';
import type { SaleProduct } from '../../../src/events/sales/events.ts';

const spec = deciderSpec(saleDecider);

const acknowledge = (saleProductId: number, supplier: 'supplier-a' | 'supplier-b' = 'supplier-a'): Command<'AcknowledgeSaleProduct'> => ({
  type: 'AcknowledgeSaleProduct',
  saleProductId,
  supplier,
  at,
});
const ship = (saleProductId: number, supplier: 'supplier-a' | 'supplier-b' = 'supplier-a'): Command<'ShipSaleProduct'> => ({
  type: 'ShipSaleProduct',
  saleProductId,
  supplier,
  at,
});
const acknowledged = (sale: SaleImportedEvent, line: SaleProduct): SaleEvent => ({
  type: 'SaleProductAcknowledged',
  data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, supplier: 'supplier-a', acknowledgedAt: at },
});

describe('a supplier acknowledging its line', () => {
  it('when the line is its own and open, records the acknowledgement', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale])
      .when(acknowledge(line.saleProductId))
      .then([acknowledged(sale, line)]);
  });

  it('when the line was already acknowledged, is refused as processed', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, acknowledged(sale, line)])
      .when(acknowledge(line.saleProductId))
      .thenRefused('line_not_found_or_processed');
  });

  it('when the line belongs to the other supplier, is refused as not found', () => {
    const sale = saleImported();
    spec
      .given([sale])
      .when(acknowledge(onlyProduct(sale).saleProductId, 'supplier-b'))
      .thenRefused('line_not_found_or_processed');
  });

  it('when the product ships from own stock, is refused as not found', () => {
    const sale = saleImported({ products: [product({ supplier: null })] });
    spec
      .given([sale])
      .when(acknowledge(onlyProduct(sale).saleProductId))
      .thenRefused('line_not_found_or_processed');
  });

  it('when the product is not in the sale, is refused as not found', () => {
    const sale = saleImported();
    spec
      .given([sale])
      .when(acknowledge(onlyProduct(sale).saleProductId + 1))
      .thenRefused('line_not_found_or_processed');
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec.given([]).when(acknowledge(1)).thenRefused('line_not_found_or_processed');
  });

  it('when the line is shipped, is refused as processed', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, shipped(sale, line)])
      .when(acknowledge(line.saleProductId))
      .thenRefused('line_not_found_or_processed');
  });

  it('when the line is cancelled, is refused as processed', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, cancelled(sale, line)])
      .when(acknowledge(line.saleProductId))
      .thenRefused('line_not_found_or_processed');
  });
});

describe('a supplier shipping its line', () => {
  it('when the line is acknowledged, records the shipment prepared now under the cron log user', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, acknowledged(sale, line)])
      .when(ship(line.saleProductId))
      .then([shipped(sale, line, at)]);
  });

  it('when the line was never acknowledged, still records the shipment', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale])
      .when(ship(line.saleProductId))
      .then([
        {
          type: 'SaleProductShipped',
          data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, supplier: 'supplier-a', preparedAt: at, logUser: 'cron' },
        },
      ]);
  });

  it('when the line is of supplier-b and supplier-b ships it, records the shipment', () => {
    const sale = saleImported({ products: [product({ supplier: 'supplier-b' })] });
    const line = onlyProduct(sale);
    spec
      .given([sale])
      .when(ship(line.saleProductId, 'supplier-b'))
      .then([shipped(sale, line, at)]);
  });

  it('when the line was already shipped, nothing is deliverable', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, shipped(sale, line)])
      .when(ship(line.saleProductId))
      .thenRefused('nothing_deliverable');
  });

  it('when the line is cancelled, nothing is deliverable', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, cancelled(sale, line)])
      .when(ship(line.saleProductId))
      .thenRefused('nothing_deliverable');
  });

  it('when the line belongs to the other supplier, nothing is deliverable', () => {
    const sale = saleImported();
    spec
      .given([sale])
      .when(ship(onlyProduct(sale).saleProductId, 'supplier-b'))
      .thenRefused('nothing_deliverable');
  });

  it('when the product ships from own stock, nothing is deliverable to a supplier', () => {
    const sale = saleImported({ products: [product({ supplier: null })] });
    spec
      .given([sale])
      .when(ship(onlyProduct(sale).saleProductId))
      .thenRefused('nothing_deliverable');
  });

  it('when the product is not in the sale, nothing is deliverable', () => {
    const sale = saleImported();
    spec
      .given([sale])
      .when(ship(onlyProduct(sale).saleProductId + 1))
      .thenRefused('nothing_deliverable');
  });

  it('when the sale does not exist, nothing is deliverable', () => {
    spec.given([]).when(ship(1)).thenRefused('nothing_deliverable');
  });
});
