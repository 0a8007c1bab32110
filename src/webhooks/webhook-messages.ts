import { assertNever } from '../events/decider.ts';
import type { EventOfType, StoredEvent } from '../events/registry.ts';
import type { SupplierName } from '../events/schema/common-schemas.ts';
import { serviceOrderId } from '../events/sales/service-order-id.ts';
import { hasSupplierLine, isCancelled, isRefused, isShipped, type Sale, type SaleProductState } from '../events/sales/state.ts';
import type { WebhookKind } from '../events/webhooks/events.ts';

/**
 * What the log owes the suppliers' webhooks, as pure functions of a source event and the sale just
 * before and just after it: a line opened for a supplier (imported, or handed to it by staff), a line
 * cancelled before it left, the delivery address of its open lines changed, a line taken from it and
 * handed to the other supplier. The payload holds the line's get-sales fields and never the customer:
 * the label link, made when the message is sent, is the only way to the address, as in get-sales.
 */

export const webhookSourceTypes = ['SaleImported', 'SupplierLineHandedOver', 'SaleProductCancelled', 'SaleCancelled', 'SaleAddressUpdated'] as const;
export type WebhookSourceEvent = EventOfType<(typeof webhookSourceTypes)[number]>;

/** The get-sales fields of a line, but its label link (signed when sent). */
export type LineFields = { service_order_id: string; sku: string; quantity: number; price: number | null; order_date: string; carrier: string | null };

export type WebhookMessage = {
  supplier: SupplierName;
  kind: WebhookKind;
  serviceOrderId: string;
  /** The payload's `data`, but `link_to_label` (added when sent, for the kinds that carry one). */
  data: Record<string, unknown>;
  withLabelLink: boolean;
};

const isOpenLine = (product: SaleProductState): product is SaleProductState & { supplier: SupplierName } =>
  hasSupplierLine(product) && !isShipped(product) && !isCancelled(product);

const lineFields = (sale: Sale, product: SaleProductState, orderDate: (instant: string) => string): LineFields => ({
  service_order_id: serviceOrderId(sale.incrementId, product.saleProductId),
  sku: product.sku,
  quantity: product.qty,
  price: product.wholesalePrice,
  order_date: orderDate(sale.orderedAt),
  carrier: product.carrier,
});

/**
 * The messages one source event owes. `before` is the sale as it stood before the event (null for an
 * import), `after` as it stands after it; `orderDate` gives an instant's local date (get-sales' order_date).
 */
export const webhookMessagesOf = (
  event: StoredEvent<WebhookSourceEvent>,
  before: Sale | null,
  after: Sale,
  orderDate: (instant: string) => string,
): WebhookMessage[] => {
  const opened = (product: SaleProductState & { supplier: SupplierName }, reason: 'imported' | 'handed_over'): WebhookMessage => {
    const fields = lineFields(after, product, orderDate);
    return { supplier: product.supplier, kind: 'line.opened', serviceOrderId: fields.service_order_id, data: { ...fields, reason }, withLabelLink: true };
  };
  const told = (supplier: SupplierName, kind: WebhookKind, product: SaleProductState, withLabelLink = false): WebhookMessage => {
    const id = serviceOrderId(after.incrementId, product.saleProductId);
    return { supplier, kind, serviceOrderId: id, data: { service_order_id: id }, withLabelLink };
  };
  const productOf = (sale: Sale | null, saleProductId: number) => sale?.products.find((product) => product.saleProductId === saleProductId);

  switch (event.type) {
    case 'SaleImported':
      return after.products.filter(isOpenLine).map((product) => opened(product, 'imported'));
    case 'SupplierLineHandedOver': {
      const product = productOf(after, event.data.saleProductId);
      if (!product || !isOpenLine(product)) return [];
      return [told(event.data.fromSupplier, 'line.taken_away', product), opened(product, 'handed_over')];
    }
    case 'SaleProductCancelled': {
      const product = productOf(before, event.data.saleProductId);
      return product && isOpenLine(product) ? [told(product.supplier, 'line.cancelled', product)] : [];
    }
    case 'SaleCancelled':
      return (before?.products ?? []).filter(isOpenLine).map((product) => told(product.supplier, 'line.cancelled', product));
    case 'SaleAddressUpdated':
      // A refused line is out of its supplier's feed: there is no parcel of it to relabel.
      return after.products
        .filter(isOpenLine)
        .filter((product) => !isRefused(product))
        .map((product) => told(product.supplier, 'line.address_changed', product, true));
    default:
      return assertNever(event);
  }
};
