import type { ProductDocument } from '../../projections/catalog/product-document.ts';
import type { SavDocument } from '../../projections/after-sales/sav-document.ts';
import type { SaleDocument, SaleProductDocument } from '../../projections/sales/sale-document.ts';
import { presentSavRecord } from './sav-presenter.ts';
import { availabilityText, stockStatus } from './stock-status.ts';

/**
 * A product of the order, with where it stands: its availability in the catalog (null when the SKU
 * is no longer catalogued), its delivery status, and, for a line the supplier ships, its shipment
 * reference: the supplier's own carrier and tracking when it shipped with them, else our label's.
 * `tracking` and `carrier` are text, "" when unknown.
 */
const presentOrderedProduct = (product: SaleProductDocument, catalogued: ProductDocument | undefined) => {
  const own = product.supplierTracking ?? null;
  const trackingNumber = own?.trackingNumber ?? product.trackingNumber;
  const carrier = own?.carrier ?? product.carrier;
  return {
    sale_product_id: product.saleProductId,
    sku: product.sku,
    name: product.name,
    qty: product.qty,
    price: product.price,
    tracking: trackingNumber ?? '',
    carrier: carrier ?? '',
    availability: catalogued ? availabilityText(catalogued) : null,
    stock_status: catalogued ? stockStatus(catalogued) : null,
    delivery_status: product.state,
    shipped_at: product.preparedAt,
    container_tracking:
      product.supplier !== null && trackingNumber !== null
        ? { tracking_number: trackingNumber, carrier: carrier ?? '', tracking_url: own?.trackingUrl ?? null }
        : null,
    refusal_reason: product.refusal?.reason ?? null,
  };
};

/**
 * The sale detail envelope's `data`: the interface's fields (camel-cased `incrementId` included, as the
 * chatbot reads it) and, snake-cased, the order's dates and amounts, payment, and SAV history.
 */
export const presentSaleDetails = (sale: SaleDocument, catalog: ReadonlyMap<string, ProductDocument>, savs: readonly SavDocument[], baseUrl: string) => ({
  id: sale._id,
  incrementId: sale.incrementId,
  status: sale.status,
  created_at: sale.orderedAt,
  order_date: sale.orderDate,
  grand_total: sale.grandTotal,
  shipping_amount: sale.shippingAmount,
  currency: sale.currency,
  customer: { firstname: sale.customer.firstname, lastname: sale.customer.lastname, email: sale.customer.email },
  products: sale.products.map((product) => presentOrderedProduct(product, catalog.get(product.sku))),
  payment: {
    method: sale.payment?.method ?? null,
    status: sale.payment?.status ?? null,
    amount_paid: sale.payment?.amountPaid ?? null,
  },
  sav_status: {
    has_sav: savs.length > 0,
    sav_count: savs.length,
    in_progress_count: savs.filter((sav) => sav.status === 'in_progress').length,
  },
  sav_history: savs.map((sav) => presentSavRecord(sav, baseUrl)),
});
