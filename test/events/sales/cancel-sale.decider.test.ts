import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { SaleEvent, SaleProduct } from '../../../src/events/sales/events.ts';
import { at, cancelled, product, refundId, saleImported, shipped, type Command, type SaleImportedEvent } from './sale-fixtures.ts';

const spec = deciderSpec(saleDecider);
const reason = 'out of stock';

const cancel = (refund: number, saleProductIds?: number[]): Command<'CancelSale'> => ({
  type: 'CancelSale',
  ...(saleProductIds ? { saleProductIds } : {}),
  reason,
  refundId: refund,
  at,
});
const productCancelled = (sale: SaleImportedEvent, line: SaleProduct): SaleEvent => ({
  type: 'SaleProductCancelled',
  data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, reason, cancelledAt: at },
});
const saleCancelled = (sale: SaleImportedEvent): SaleEvent => ({ type: 'SaleCancelled', data: { saleId: sale.data.saleId, reason, cancelledAt: at } });
const refundRequested = (sale: SaleImportedEvent, refund: number, amount: number, lines: SaleProduct[]): SaleEvent => ({
  type: 'RefundRequested',
  data: {
    saleId: sale.data.saleId,
    refundId: refund,
    amount,
    currency: 'EUR',
    reason,
    saleProductIds: lines.map((line) => line.saleProductId),
    requestedAt: at,
  },
});

/** A paid sale of a sofa (649) and two lamps (2 x 129.9). */
const paidSale = () => {
  const sofa = product({ price: 649, qty: 1 });
  const lamps = product({ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', price: 129.9, qty: 2, supplier: null });
  return { sale: saleImported({ products: [sofa, lamps], grandTotal: 908.8 }), sofa, lamps };
};

describe('cancelling some products of a sale', () => {
  it('when the products are paid and not shipped, cancels them and requests one refund of their amount', () => {
    const { sale, lamps } = paidSale();
    const refund = refundId();
    spec
      .given([sale])
      .when(cancel(refund, [lamps.saleProductId]))
      .then([productCancelled(sale, lamps), refundRequested(sale, refund, 259.8, [lamps])]);
  });

  it('when several paid products are cancelled at once, one refund covers them all', () => {
    const { sale, sofa, lamps } = paidSale();
    const refund = refundId();
    spec
      .given([sale])
      .when(cancel(refund, [sofa.saleProductId, lamps.saleProductId]))
      .then([productCancelled(sale, sofa), productCancelled(sale, lamps), refundRequested(sale, refund, 908.8, [sofa, lamps])]);
  });

  it('when the sale is not paid, cancels the products and requests no refund', () => {
    const line = product();
    const sale = saleImported({ products: [line], payment: { method: 'transfer', status: 'pending', amountPaid: null } });
    spec
      .given([sale])
      .when(cancel(refundId(), [line.saleProductId]))
      .then([productCancelled(sale, line)]);
  });

  it('when the sale has no payment, cancels the products and requests no refund', () => {
    const line = product();
    const sale = saleImported({ products: [line], payment: null });
    spec
      .given([sale])
      .when(cancel(refundId(), [line.saleProductId]))
      .then([productCancelled(sale, line)]);
  });

  it('when one of the products is already cancelled, cancels and refunds only the others', () => {
    const { sale, sofa, lamps } = paidSale();
    const refund = refundId();
    spec
      .given([sale, cancelled(sale, sofa)])
      .when(cancel(refund, [sofa.saleProductId, lamps.saleProductId]))
      .then([productCancelled(sale, lamps), refundRequested(sale, refund, 259.8, [lamps])]);
  });

  it('when the products are already cancelled, nothing happens and nothing is refunded twice', () => {
    const { sale, lamps } = paidSale();
    const first = refundId();
    spec
      .given([sale, productCancelled(sale, lamps), refundRequested(sale, first, 259.8, [lamps])])
      .when(cancel(refundId(), [lamps.saleProductId]))
      .thenNothingHappens();
  });

  it('when a product is not in the sale, is refused as unknown', () => {
    const { sale, lamps } = paidSale();
    spec
      .given([sale])
      .when(cancel(refundId(), [lamps.saleProductId, lamps.saleProductId + 100]))
      .thenRefused('unknown_product');
  });

  it('when one requested product is shipped, is refused and cancels nothing', () => {
    const { sale, sofa, lamps } = paidSale();
    spec
      .given([sale, shipped(sale, sofa)])
      .when(cancel(refundId(), [sofa.saleProductId, lamps.saleProductId]))
      .thenRefused('already_shipped');
  });

  it('when another product of the sale is shipped, cancels the requested one', () => {
    const { sale, sofa, lamps } = paidSale();
    const refund = refundId();
    spec
      .given([sale, shipped(sale, sofa)])
      .when(cancel(refund, [lamps.saleProductId]))
      .then([productCancelled(sale, lamps), refundRequested(sale, refund, 259.8, [lamps])]);
  });

  it('when a price times quantity falls between cents, the refund is rounded to the cent', () => {
    const line = product({ price: 10.005, qty: 1 });
    const sale = saleImported({ products: [line] });
    const refund = refundId();
    spec
      .given([sale])
      .when(cancel(refund, [line.saleProductId]))
      .then([productCancelled(sale, line), refundRequested(sale, refund, 10.01, [line])]);
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec
      .given([])
      .when(cancel(refundId(), [1]))
      .thenRefused('sale_not_found');
  });
});

describe('cancelling a whole sale', () => {
  it('when nothing is shipped, cancels every product, the sale, and refunds what was paid', () => {
    const { sale, sofa, lamps } = paidSale();
    const refund = refundId();
    spec
      .given([sale])
      .when(cancel(refund))
      .then([productCancelled(sale, sofa), productCancelled(sale, lamps), saleCancelled(sale), refundRequested(sale, refund, 908.8, [sofa, lamps])]);
  });

  it('when a product was cancelled before, cancels and refunds the rest', () => {
    const { sale, sofa, lamps } = paidSale();
    const refund = refundId();
    spec
      .given([sale, cancelled(sale, sofa)])
      .when(cancel(refund))
      .then([productCancelled(sale, lamps), saleCancelled(sale), refundRequested(sale, refund, 259.8, [lamps])]);
  });

  it('when a product is shipped, is refused and cancels nothing', () => {
    const { sale, lamps } = paidSale();
    spec
      .given([sale, shipped(sale, lamps)])
      .when(cancel(refundId()))
      .thenRefused('already_shipped');
  });

  it('when the sale is already cancelled, nothing happens and nothing is refunded twice', () => {
    const { sale, sofa, lamps } = paidSale();
    const first = refundId();
    spec
      .given([sale, productCancelled(sale, sofa), productCancelled(sale, lamps), saleCancelled(sale), refundRequested(sale, first, 908.8, [sofa, lamps])])
      .when(cancel(refundId()))
      .thenNothingHappens();
  });

  it('when the sale is unpaid, cancels it and requests no refund', () => {
    const line = product();
    const sale = saleImported({ products: [line], payment: { method: 'card', status: 'failed', amountPaid: null } });
    spec
      .given([sale])
      .when(cancel(refundId()))
      .then([productCancelled(sale, line), saleCancelled(sale)]);
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec.given([]).when(cancel(refundId())).thenRefused('sale_not_found');
  });
});
