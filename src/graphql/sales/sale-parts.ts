import type { Address, BusinessCustomer } from '../../events/schema/common-schemas.ts';
import type { RefundDocument, SaleDocument, SaleProductDocument } from '../../projections/sales/sale-document.ts';
import { lineRefusalReason } from '../../events/sales/events.ts';
import type { LineRefusal } from '../../events/sales/state.ts';
import { builder } from '../builder.ts';

/** The parts of a sale, shared by the current sale (read model) and the sale as it stood (saleAt). */

export const SaleStatusEnum = builder.enumType('SaleStatus', { values: ['processing', 'complete', 'cancelled'] as const });
export const ProductStateEnum = builder.enumType('ProductState', {
  description: '`refused`: its supplier refused the line; staff cancel it or hand it to the other supplier.',
  values: ['pending', 'acknowledged', 'refused', 'shipped', 'cancelled'] as const,
});
export const LineRefusalReasonEnum = builder.enumType('LineRefusalReason', { values: lineRefusalReason.options });

export const LineRefusalRef = builder.objectRef<LineRefusal>('LineRefusal').implement({
  description: 'Why a supplier refused one of its lines.',
  fields: (t) => ({
    supplier: t.exposeString('supplier', { description: 'The supplier that refused it.' }),
    reason: t.expose('reason', { type: LineRefusalReasonEnum }),
    comment: t.exposeString('comment', { description: "The supplier's comment; empty when it gave none." }),
    refusedAt: t.expose('refusedAt', { type: 'DateTime' }),
  }),
});
export const PlanningTypeEnum = builder.enumType('PlanningType', { values: ['sav', 'delivery'] as const });

export const AddressRef = builder.objectRef<Address>('Address').implement({
  fields: (t) => ({
    firstname: t.exposeString('firstname'),
    lastname: t.exposeString('lastname'),
    company: t.string({ nullable: true, resolve: (address) => address.company ?? null }),
    street: t.exposeStringList('street'),
    postcode: t.exposeString('postcode'),
    city: t.exposeString('city'),
    countryId: t.exposeString('country_id'),
    telephone: t.string({ nullable: true, resolve: (address) => address.telephone ?? null }),
  }),
});

export const CustomerRef = builder.objectRef<SaleDocument['customer']>('Customer').implement({
  fields: (t) => ({
    email: t.exposeString('email'),
    firstname: t.exposeString('firstname'),
    lastname: t.exposeString('lastname'),
    phone: t.exposeString('phone', { nullable: true }),
  }),
});

export const BusinessCustomerRef = builder.objectRef<BusinessCustomer>('BusinessCustomer').implement({
  description: 'The company a business customer buys for, as the order import gave it: its invoices and credit notes name it.',
  fields: (t) => ({
    companyName: t.exposeString('companyName'),
    siren: t.exposeString('siren', { description: 'The SIREN, 9 digits (from the SIRET when the order gave only that).' }),
    siret: t.exposeString('siret', { nullable: true, description: 'The SIRET of the establishment that buys, 14 digits; null when the order gave none.' }),
    vatNumber: t.exposeString('vatNumber', { nullable: true, description: 'The intra-EU VAT number; null when the order gave none.' }),
  }),
});

type Tracking = { carrier: string | null; trackingNumber: string; labelPath: string | null; url: string | null; bySupplier: boolean };
const TrackingRef = builder.objectRef<Tracking>('Tracking').implement({
  description:
    "How a drop-shipped product is tracked: our shipping label's carrier and number or, when its supplier shipped with its own carrier, the supplier's.",
  fields: (t) => ({
    carrier: t.exposeString('carrier', { nullable: true }),
    trackingNumber: t.exposeString('trackingNumber'),
    labelPath: t.exposeString('labelPath', { nullable: true, description: "Our label's path; null when the supplier shipped with its own carrier." }),
    url: t.exposeString('url', { nullable: true, description: 'The tracking page the supplier gave; null for our label and when it gave none.' }),
    bySupplier: t.exposeBoolean('bySupplier', { description: "True when the supplier shipped with its own carrier and tracking, in place of our label's." }),
  }),
});

/** The supplier's own tracking when it shipped with it, else our label's; null without either. */
const trackingOf = (product: SaleProductDocument): Tracking | null => {
  const own = product.supplierTracking ?? null;
  if (own !== null) return { carrier: own.carrier, trackingNumber: own.trackingNumber, labelPath: null, url: own.trackingUrl, bySupplier: true };
  if (product.trackingNumber === null) return null;
  return { carrier: product.carrier, trackingNumber: product.trackingNumber, labelPath: product.labelPath, url: null, bySupplier: false };
};

export const SaleProductRef = builder.objectRef<SaleProductDocument>('SaleProduct').implement({
  fields: (t) => ({
    saleProductId: t.exposeInt('saleProductId'),
    sku: t.exposeString('sku'),
    name: t.exposeString('name'),
    qty: t.exposeInt('qty'),
    price: t.exposeFloat('price'),
    wholesalePrice: t.exposeFloat('wholesalePrice', { nullable: true }),
    supplier: t.exposeString('supplier', { nullable: true, description: 'The drop-shipper; null when it ships from own stock.' }),
    carrier: t.exposeString('carrier', { nullable: true }),
    requiresAppointment: t.exposeBoolean('requiresAppointment'),
    state: t.expose('state', { type: ProductStateEnum }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true }),
    shippedAt: t.expose('preparedAt', { type: 'DateTime', nullable: true }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true }),
    tracking: t.field({ type: TrackingRef, nullable: true, resolve: trackingOf }),
    refusal: t.field({
      type: LineRefusalRef,
      nullable: true,
      description: "The supplier's refusal while it stands (kept on a line cancelled after it); null otherwise.",
      resolve: (product) => product.refusal ?? null,
    }),
  }),
});

export const RefundRef = builder.objectRef<RefundDocument>('Refund').implement({
  fields: (t) => ({
    refundId: t.exposeInt('refundId'),
    amount: t.exposeFloat('amount'),
    currency: t.exposeString('currency'),
    reason: t.exposeString('reason'),
    saleProductIds: t.exposeIntList('saleProductIds'),
    status: t.exposeString('status', { description: 'requested or paid' }),
    requestedAt: t.expose('requestedAt', { type: 'DateTime' }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
  }),
});

export const DeliveryAppointmentRef = builder.objectRef<NonNullable<SaleDocument['deliveryAppointment']>>('DeliveryAppointment').implement({
  fields: (t) => ({
    planningType: t.expose('planningType', { type: PlanningTypeEnum }),
    date: t.expose('date', { type: 'LocalDate' }),
    time: t.exposeString('time'),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime' }),
  }),
});

export const DeliveryServiceAppointmentRef = builder
  .objectRef<NonNullable<SaleDocument['deliveryServiceAppointment']>>('DeliveryServiceAppointment')
  .implement({
    description: 'An appointment a third-party delivery service gave (its planning, not ours).',
    fields: (t) => ({
      provider: t.exposeString('provider'),
      reference: t.exposeString('reference'),
      date: t.expose('date', { type: 'LocalDate', nullable: true }),
      timeWindow: t.exposeString('timeWindow', { nullable: true }),
      savedAt: t.expose('savedAt', { type: 'DateTime' }),
    }),
  });
