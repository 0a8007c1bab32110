import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { SaleEvent } from '../../../src/events/sales/events.ts';
import { at, cancelled, later, onlyProduct, refundId, saleImported, type Command, type SaleImportedEvent } from './sale-fixtures.ts';

const spec = deciderSpec(saleDecider);

const markPaid = (refund: number): Command<'MarkRefundPaid'> => ({ type: 'MarkRefundPaid', refundId: refund, at });

/** A sale whose only product was cancelled, with the refund that cancellation requested. */
const refundedSale = (refund: number): { sale: SaleImportedEvent; history: SaleEvent[] } => {
  const sale = saleImported();
  const line = onlyProduct(sale);
  return {
    sale,
    history: [
      sale,
      cancelled(sale, line),
      {
        type: 'RefundRequested',
        data: {
          saleId: sale.data.saleId,
          refundId: refund,
          amount: 649,
          currency: 'EUR',
          reason: 'customer request',
          saleProductIds: [line.saleProductId],
          requestedAt: at,
        },
      },
    ],
  };
};

describe('marking a refund paid', () => {
  it('when the refund is requested, records it paid', () => {
    const refund = refundId();
    const { sale, history } = refundedSale(refund);
    spec
      .given(history)
      .when(markPaid(refund))
      .then([{ type: 'RefundPaid', data: { saleId: sale.data.saleId, refundId: refund, paidAt: at } }]);
  });

  it('when the refund is already paid, nothing happens', () => {
    const refund = refundId();
    const { sale, history } = refundedSale(refund);
    spec
      .given([...history, { type: 'RefundPaid', data: { saleId: sale.data.saleId, refundId: refund, paidAt: later } }])
      .when(markPaid(refund))
      .thenNothingHappens();
  });

  it('when the refund is not one of the sale, is refused', () => {
    const { history } = refundedSale(refundId());
    spec.given(history).when(markPaid(refundId())).thenRefused('unknown_refund');
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec.given([]).when(markPaid(refundId())).thenRefused('sale_not_found');
  });
});
