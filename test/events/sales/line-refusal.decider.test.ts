import { describe, it } from 'vitest';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { SaleEvent, SaleProduct } from '../../../src/events/sales/events.ts';
import { deciderSpec } from '../../support/decider-spec.ts';
import { at, cancelled, onlyProduct, product, saleImported, shipped, type Command, type SaleImportedEvent } from './sale-fixtures.ts';

const spec = deciderSpec(saleDecider);

const refuse = (saleProductId: number, supplier: 'supplier-a' | 'supplier-b' = 'supplier-a'): Command<'RefuseSupplierLine'> => ({
  type: 'RefuseSupplierLine',
  saleProductId,
  supplier,
  reason: 'out_of_stock',
  comment: 'Rupture',
  at,
});
const handOver = (saleProductId: number): Command<'HandOverSupplierLine'> => ({ type: 'HandOverSupplierLine', saleProductId, at });
const refused = (sale: SaleImportedEvent, line: SaleProduct): SaleEvent => ({
  type: 'SupplierLineRefused',
  data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, supplier: 'supplier-a', reason: 'out_of_stock', comment: 'Rupture', refusedAt: at },
});
const handedOver = (sale: SaleImportedEvent, line: SaleProduct): SaleEvent => ({
  type: 'SupplierLineHandedOver',
  data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, fromSupplier: 'supplier-a', toSupplier: 'supplier-b', handedOverAt: at },
});
const ship = (saleProductId: number, supplier: 'supplier-a' | 'supplier-b'): Command<'ShipSaleProduct'> => ({
  type: 'ShipSaleProduct',
  saleProductId,
  supplier,
  at,
});

describe('a supplier refusing its line, staff handing it over', () => {
  it('when the line is its own and open, records the refusal with its reason and comment', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale])
      .when(refuse(line.saleProductId))
      .then([refused(sale, line)]);
  });

  it('when the line is already refused, shipped, cancelled, the other supplier’s or unknown, the refusal is refused as processed', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, refused(sale, line)])
      .when(refuse(line.saleProductId))
      .thenRefused('line_not_found_or_processed');
    spec
      .given([sale, shipped(sale, line)])
      .when(refuse(line.saleProductId))
      .thenRefused('line_not_found_or_processed');
    spec
      .given([sale, cancelled(sale, line)])
      .when(refuse(line.saleProductId))
      .thenRefused('line_not_found_or_processed');
    spec.given([sale]).when(refuse(line.saleProductId, 'supplier-b')).thenRefused('line_not_found_or_processed');
    spec.given([]).when(refuse(1)).thenRefused('line_not_found_or_processed');
  });

  it('when the line is refused, its supplier can no longer ship it', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, refused(sale, line)])
      .when(ship(line.saleProductId, 'supplier-a'))
      .thenRefused('nothing_deliverable');
  });

  it('when a refused line is handed over, it goes to the other supplier, who may then ship it', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec
      .given([sale, refused(sale, line)])
      .when(handOver(line.saleProductId))
      .then([handedOver(sale, line)]);
    spec
      .given([sale, refused(sale, line), handedOver(sale, line)])
      .when(ship(line.saleProductId, 'supplier-b'))
      .then([
        {
          type: 'SaleProductShipped',
          data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, supplier: 'supplier-b', preparedAt: at, logUser: 'cron' },
        },
      ]);
  });

  it('when the line is not refused (open, cancelled after its refusal, from own stock) or unknown, the hand-over is refused', () => {
    const sale = saleImported();
    const line = onlyProduct(sale);
    spec.given([sale]).when(handOver(line.saleProductId)).thenRefused('line_not_refused');
    spec
      .given([sale, refused(sale, line), cancelled(sale, line)])
      .when(handOver(line.saleProductId))
      .thenRefused('line_not_refused');
    spec
      .given([sale, refused(sale, line), handedOver(sale, line)])
      .when(handOver(line.saleProductId))
      .thenRefused('line_not_refused');
    const own = saleImported({ products: [product({ supplier: null })] });
    spec
      .given([own])
      .when(handOver(onlyProduct(own).saleProductId))
      .thenRefused('line_not_refused');
    spec
      .given([sale])
      .when(handOver(line.saleProductId + 1))
      .thenRefused('unknown_product');
    spec.given([]).when(handOver(1)).thenRefused('sale_not_found');
  });
});
