import type { SaleEvent } from './events.ts';
import type { CancelSale } from './commands.ts';
import { fromCents, lineCents, sumCents } from '../schema/money.ts';
import { refuse, type SaleDecision } from './refusals.ts';
import { isCancelled, isShipped, type Sale } from './state.ts';

/**
 * Cancelling a whole sale or some of its products. Nothing that has left can be cancelled, so a
 * request naming a shipped product cancels nothing at all. Products already cancelled are skipped,
 * which makes cancelling twice a no-op (and refunds nothing twice).
 */
export const decideCancellation = ({ saleProductIds, reason, refundId, at }: CancelSale, sale: Sale): SaleDecision => {
  const { saleId } = sale;
  const wholeSale = saleProductIds === undefined;

  let requested = sale.products;
  if (!wholeSale) {
    const known = new Set(sale.products.map((product) => product.saleProductId));
    const unknown = saleProductIds.filter((id) => !known.has(id));
    if (unknown.length > 0) return refuse('unknown_product', 'Not a product of the sale', { saleProductIds: unknown });
    const wanted = new Set(saleProductIds);
    requested = sale.products.filter((product) => wanted.has(product.saleProductId));
  }

  const shipped = requested.filter(isShipped).map((product) => product.saleProductId);
  if (shipped.length > 0) return refuse('already_shipped', 'A product has already been shipped', { saleProductIds: shipped });

  const cancelled = requested.filter((product) => !isCancelled(product));
  if (cancelled.length === 0) return [];

  const events: SaleEvent[] = cancelled.map((product) => ({
    type: 'SaleProductCancelled',
    data: { saleId, saleProductId: product.saleProductId, reason, cancelledAt: at },
  }));
  if (wholeSale) events.push({ type: 'SaleCancelled', data: { saleId, reason, cancelledAt: at } });

  // The customer paid for the whole order, so each newly cancelled product is paid back (a free one needs no refund).
  const amount = fromCents(sumCents(cancelled.map(lineCents)));
  if (sale.payment?.status === 'paid' && amount > 0) {
    events.push({
      type: 'RefundRequested',
      data: {
        saleId,
        refundId,
        amount,
        currency: sale.currency,
        reason,
        saleProductIds: cancelled.map((product) => product.saleProductId),
        requestedAt: at,
      },
    });
  }
  return events;
};
