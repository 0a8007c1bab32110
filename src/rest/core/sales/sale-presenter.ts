import type { Address } from '../../../events/schema/common-schemas.ts';
import type { SavDocument } from '../../../projections/after-sales/sav-document.ts';
import type { SaleDocument, SaleProductDocument } from '../../../projections/sales/sale-document.ts';
import { trackingUrl } from '../../../events/sales/carrier-tracking.ts';
import { presentRefund } from './refund-presenter.ts';

/**
 * The full sale of the core API, snake-cased like the legacy API: one presenter for the lookup by
 * increment ID and the lookup by sale ID, so the two never drift. Absent values are null, never
 * left out, so that every sale has the same keys (a refund's `paid_at` aside: it appears once paid).
 */

/**
 * A supplier line's tracking: the supplier's own carrier, number and page when it shipped with them, in
 * place of our label's; else the label's (its number comes with the line), the carrier and its tracking
 * page. Null from own stock.
 */
const presentTracking = (product: SaleProductDocument) => {
  const own = product.supplierTracking ?? null;
  if (own !== null)
    return { number: own.trackingNumber, carrier: own.carrier, url: own.trackingUrl ?? trackingUrl(own.carrier, own.trackingNumber), by_supplier: true };
  return product.trackingNumber === null
    ? null
    : { number: product.trackingNumber, carrier: product.carrier, url: trackingUrl(product.carrier, product.trackingNumber), by_supplier: false };
};

/** The supplier's refusal of the line, while it stands; null otherwise. */
const presentRefusal = ({ refusal }: SaleProductDocument) =>
  refusal ? { supplier: refusal.supplier, reason: refusal.reason, comment: refusal.comment, refused_at: refusal.refusedAt } : null;

const presentProduct = (incrementId: string, product: SaleProductDocument) => ({
  sale_product_id: product.saleProductId,
  sku: product.sku,
  name: product.name,
  qty: product.qty,
  price: product.price,
  wholesale_price: product.wholesalePrice,
  state: product.state,
  supplier: product.supplier,
  // The supplier line's identifier, as the supplier API names it; own-stock lines have none.
  service_order_id: product.supplier === null ? null : `${incrementId}_${product.saleProductId}`,
  carrier: product.carrier,
  requires_appointment: product.requiresAppointment,
  acknowledged_at: product.acknowledgedAt,
  prepared_at: product.preparedAt,
  cancelled_at: product.cancelledAt,
  tracking: presentTracking(product),
  refusal: presentRefusal(product),
});

const presentAddress = (address: Address) => ({
  firstname: address.firstname,
  lastname: address.lastname,
  company: address.company ?? null,
  street: address.street,
  postcode: address.postcode,
  city: address.city,
  country_id: address.country_id,
  telephone: address.telephone ?? null,
});

/** The appointment the sale holds in our delivery planning; null until one is scheduled. */
export const presentDeliveryAppointment = ({ deliveryAppointment: appointment }: Pick<SaleDocument, 'deliveryAppointment'>) =>
  appointment === null
    ? null
    : { planning_type: appointment.planningType, date: appointment.date, time: appointment.time, scheduled_at: appointment.scheduledAt };

/** A SAV of the sale, where it stands; the SAV's own routes change it. */
const presentSavSummary = (sav: SavDocument) => ({
  id: sav._id,
  status: sav.status,
  complaint_type: sav.complaintName,
  sale_product_ids: sav.saleProductIds,
  created_at: sav.createdAt,
  status_changed_at: sav.statusChangedAt,
});

/** The sale with its SAVs (those of the `savs` read model whose sale it is, in filing order). */
export const presentSale = (sale: SaleDocument, savs: readonly SavDocument[]) => ({
  id: sale._id,
  increment_id: sale.incrementId,
  status: sale.status,
  source: sale.source,
  created_at: sale.orderedAt,
  order_date: sale.orderDate,
  currency: sale.currency,
  customer: {
    email: sale.customer.email,
    firstname: sale.customer.firstname,
    lastname: sale.customer.lastname,
    phone: sale.customer.phone,
  },
  business_customer:
    sale.businessCustomer === undefined
      ? null
      : {
          company_name: sale.businessCustomer.companyName,
          siren: sale.businessCustomer.siren,
          siret: sale.businessCustomer.siret,
          vat_number: sale.businessCustomer.vatNumber,
        },
  shipping_address: presentAddress(sale.shippingAddress),
  billing_address: sale.billingAddress === null ? null : presentAddress(sale.billingAddress),
  payment: sale.payment === null ? null : { method: sale.payment.method, status: sale.payment.status, amount_paid: sale.payment.amountPaid },
  shipping_amount: sale.shippingAmount,
  grand_total: sale.grandTotal,
  products: sale.products.map((product) => presentProduct(sale.incrementId, product)),
  refunds: sale.refunds.map(presentRefund),
  delivery_appointment: presentDeliveryAppointment(sale),
  delivery_service_appointment:
    sale.deliveryServiceAppointment === null
      ? null
      : {
          provider: sale.deliveryServiceAppointment.provider,
          reference: sale.deliveryServiceAppointment.reference,
          date: sale.deliveryServiceAppointment.date,
          time_window: sale.deliveryServiceAppointment.timeWindow,
          saved_at: sale.deliveryServiceAppointment.savedAt,
        },
  sav_ids: sale.savIds,
  savs: savs.map(presentSavSummary),
  imported_at: sale.importedAt,
  cancelled_at: sale.cancelledAt,
  updated_at: sale.updatedAt,
});

export type SaleAnswer = ReturnType<typeof presentSale>;
