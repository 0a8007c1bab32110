import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { quantity } from '../schema/bounded-numbers.ts';
import {
  address,
  businessCustomer,
  instant,
  personalEmail,
  localDate,
  localTime,
  money,
  planningType,
  positiveId,
  supplierName,
} from '../schema/common-schemas.ts';
import { refundRequestedV1, saleImportedV1 } from './amounts-v1.ts';
import { saleImportedV2, unknownFieldsProblem } from './unknown-fields-bounds.ts';
import { addressFields, type PersonalDataRule } from '../schema/personal-data.ts';

/** Events of a sale's stream, `sale-<increment_id>`: the order, its products and their supplier lines. */

export const saleProduct = z.object({
  saleProductId: positiveId,
  sku: z.string().min(1).max(64),
  name: z.string().min(1).max(255),
  qty: quantity,
  /** Retail unit price, tax included. */
  price: money,
  /** Supplier unit price (the order's, else the catalog's); null when unknown. */
  wholesalePrice: money.nullable(),
  /** The drop-shipper of this line; null when it ships from own stock. */
  supplier: supplierName.nullable(),
  carrier: z.string().max(64).nullable(),
  requiresAppointment: z.boolean(),
});
export type SaleProduct = z.infer<typeof saleProduct>;

export const payment = z.object({
  method: z.string().max(64),
  status: z.enum(['paid', 'pending', 'failed', 'refunded']),
  amountPaid: money.nullable(),
});

/**
 * Who the customer is and where they live, and the payload's extra fields (unknown to the contract,
 * they may be anything): sealed with the key of the customer of that e-mail address. So is the name
 * of a business customer's company, which for a sole trader is often the trader's own name; its SIREN,
 * SIRET and VAT number are not sealed: they identify the company in public registers, and the invoices
 * of record, kept ten years, must go on naming it for the tax administration.
 */
const saleImportedPersonalData: PersonalDataRule = {
  fields: [
    'customer.email',
    'customer.firstname',
    'customer.lastname',
    'customer.phone',
    'businessCustomer.companyName',
    ...addressFields('shippingAddress'),
    ...addressFields('billingAddress'),
    'unknownFields',
  ],
  subject: (data) => ({ email: String((data.customer as { email: unknown }).email) }),
};

export const SaleImported = defineEvent(
  'SaleImported',
  z.object({
    saleId: positiveId,
    incrementId: z.string().regex(/^\d{1,20}$/),
    source: z.string().min(1).max(64),
    /** The order's creation instant on the platform, with its offset. */
    orderedAt: instant,
    currency: z.string().regex(/^[A-Z]{3}$/),
    customer: z.object({
      email: personalEmail(),
      firstname: z.string().min(1),
      lastname: z.string().min(1),
      phone: z.string().max(32).nullable(),
    }),
    /** The company the customer buys for; absent for a consumer sale, and on every sale imported before it could be given. */
    businessCustomer: businessCustomer.optional(),
    shippingAddress: address,
    billingAddress: address.nullable(),
    products: z.array(saleProduct).min(1),
    payment: payment.nullable(),
    shippingAmount: money,
    grandTotal: money,
    /**
     * The payload's fields beyond the order-import contract, as sent (see contracts/unknown-fields.ts):
     * kept for audit, ignored by every decision and read model, within their bounds
     * (unknown-fields-bounds.ts: checked before anything deeper than them is parsed). Absent when there were none.
     */
    unknownFields: z
      .record(z.string(), z.unknown())
      .superRefine((fields, context) => {
        const problem = unknownFieldsProblem(fields);
        if (problem) context.addIssue({ code: 'custom', path: problem.field.split('.'), message: problem.message });
      })
      .pipe(z.record(z.string(), z.json()))
      .optional(),
    importedAt: instant,
  }),
  // 2: amounts bounded (schema/bounded-numbers.ts); a version 1 event is read within the bounds.
  // 3: fields beyond the contract bounded (unknown-fields-bounds.ts); a version 2 event is read cut at the bounds.
  { version: 3, upcasters: { 1: saleImportedV1, 2: saleImportedV2 }, personal: saleImportedPersonalData },
);

export const SaleAddressUpdated = defineEvent('SaleAddressUpdated', z.object({ saleId: positiveId, shippingAddress: address, updatedAt: instant }), {
  // The sale's customer: the key of the sale's stream.
  personal: { fields: addressFields('shippingAddress') },
});

export const SaleProductAcknowledged = defineEvent(
  'SaleProductAcknowledged',
  z.object({ saleId: positiveId, saleProductId: positiveId, supplier: supplierName, acknowledgedAt: instant }),
);

/** The supplier's own shipment, when it ships with its own carrier rather than with our label. */
export const supplierTracking = z.object({
  carrier: z.string().min(1).max(64),
  trackingNumber: z.string().min(1).max(64),
  /** The carrier's tracking page the supplier gave; null when it gave none. */
  trackingUrl: z
    .url({ protocol: /^https$/ })
    .max(2048)
    .nullable(),
});
export type SupplierTracking = z.infer<typeof supplierTracking>;

export const SaleProductShipped = defineEvent(
  'SaleProductShipped',
  z.object({
    saleId: positiveId,
    saleProductId: positiveId,
    supplier: supplierName.nullable(),
    preparedAt: instant,
    /** The legacy sale log wrote shipments under its cron user; the log keeps that user name. */
    logUser: z.literal('cron'),
    /** Absent when the parcel left with our label (and on every shipment recorded before suppliers could say). */
    supplierTracking: supplierTracking.optional(),
  }),
);

/** Why a supplier refuses one of its lines. */
export const lineRefusalReason = z.enum(['out_of_stock', 'discontinued', 'cannot_deliver', 'other']);
export type LineRefusalReason = z.infer<typeof lineRefusalReason>;

/**
 * A supplier said it will not ship one of its lines: the line leaves its feed until staff cancel it or
 * hand it to the other supplier. The comment is the supplier's own words about the product, never the customer's.
 */
export const SupplierLineRefused = defineEvent(
  'SupplierLineRefused',
  z.object({
    saleId: positiveId,
    saleProductId: positiveId,
    supplier: supplierName,
    reason: lineRefusalReason,
    comment: z.string().max(1000),
    refusedAt: instant,
  }),
);

/** Staff gave a refused line to the other supplier: it is open again, in that supplier's feed, with its label. */
export const SupplierLineHandedOver = defineEvent(
  'SupplierLineHandedOver',
  z.object({
    saleId: positiveId,
    saleProductId: positiveId,
    fromSupplier: supplierName,
    toSupplier: supplierName,
    handedOverAt: instant,
  }),
);

export const SaleProductCancelled = defineEvent(
  'SaleProductCancelled',
  z.object({ saleId: positiveId, saleProductId: positiveId, reason: z.string().max(500), cancelledAt: instant }),
);

export const SaleCancelled = defineEvent('SaleCancelled', z.object({ saleId: positiveId, reason: z.string().max(500), cancelledAt: instant }));

export const RefundRequested = defineEvent(
  'RefundRequested',
  z.object({
    saleId: positiveId,
    refundId: positiveId,
    amount: money,
    currency: z.string().regex(/^[A-Z]{3}$/),
    reason: z.string().max(500),
    saleProductIds: z.array(positiveId).min(1),
    requestedAt: instant,
  }),
  // 2: the amount bounded; a version 1 event is read within the bounds.
  { version: 2, upcasters: { 1: refundRequestedV1 } },
);

export const RefundPaid = defineEvent('RefundPaid', z.object({ saleId: positiveId, refundId: positiveId, paidAt: instant }));

export const SaleDeliveryAppointmentScheduled = defineEvent(
  'SaleDeliveryAppointmentScheduled',
  z.object({
    saleId: positiveId,
    planningType: planningType,
    date: localDate,
    time: localTime,
    /** The appointment this one replaces, released from the planning. */
    previous: z.object({ date: localDate, time: localTime }).nullable(),
    scheduledAt: instant,
  }),
);

export const DeliveryServiceAppointmentSaved = defineEvent(
  'DeliveryServiceAppointmentSaved',
  z.object({
    saleId: positiveId,
    provider: z.string().min(1).max(64),
    reference: z.string().min(1).max(128),
    date: localDate.nullable(),
    timeWindow: z.string().max(32).nullable(),
    savedAt: instant,
  }),
);

/**
 * A supplier line got its tracking number: recorded with SaleImported, in the same append, for every
 * line the import creates; for a line created before numbers were allocated at import, when its label
 * is first asked for. The label PDF is derived data rendered from it (and from the sale), whenever.
 */
export const TrackingNumberAllocated = defineEvent(
  'TrackingNumberAllocated',
  z.object({
    saleId: positiveId,
    saleProductId: positiveId,
    supplier: supplierName,
    trackingNumber: z.string().min(1).max(64),
    allocatedAt: instant,
  }),
);

/**
 * Recorded until tracking numbers came to be allocated at import: a label rendered on its first fetch,
 * with the number allocated then. No longer recorded (TrackingNumberAllocated took its place), still
 * read: logs written before keep their meaning, and a replay gives the same numbers.
 */
export const ShippingLabelCreated = defineEvent(
  'ShippingLabelCreated',
  z.object({
    saleId: positiveId,
    saleProductId: positiveId,
    supplier: supplierName,
    carrier: z.string().max(64).nullable(),
    trackingNumber: z.string().min(1).max(64),
    /** Path of the PDF under the file storage, as served by GET /api/files/<path>. */
    labelPath: z.string().min(1),
    createdAt: instant,
  }),
);

export const saleEventDefinitions = [
  SaleImported,
  SaleAddressUpdated,
  SaleProductAcknowledged,
  SaleProductShipped,
  SaleProductCancelled,
  SaleCancelled,
  RefundRequested,
  RefundPaid,
  SaleDeliveryAppointmentScheduled,
  DeliveryServiceAppointmentSaved,
  TrackingNumberAllocated,
  ShippingLabelCreated,
  SupplierLineRefused,
  SupplierLineHandedOver,
] as const;

export type SaleEvent = EventsOf<typeof saleEventDefinitions>;

export const saleStreamName = (incrementId: string): string => `sale-${incrementId}`;

/** The increment ID a sale's stream is named after (the events after the import name only the sale ID). */
export const incrementIdOfStream = (streamName: string): string => streamName.slice('sale-'.length);
