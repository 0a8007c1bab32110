import { z } from 'zod';
import { savStatusValues } from '../../events/after-sales/events.ts';
import { planningType, supplierName } from '../../events/schema/common-schemas.ts';
import { savFile } from './chatbot-responses.ts';

/**
 * The core API's answers as schemas. The presenters build plain objects; these say what they build,
 * for the OpenAPI document, and specs check real answers against the printed document (and the
 * fuzzer checks every answer it gets) so the two cannot drift apart. Absent values are null.
 */

const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
  .describe('An instant at the second, in the planning time zone with its offset (RFC 3339), e.g. 2026-08-01T20:24:58+02:00');
const day = z.iso.date();
const clockTime = z
  .string()
  .regex(/^\d{2}:\d{2}$/)
  .describe('HH:MM');
const id = z.number().int();
const saleStatus = z.enum(['processing', 'complete', 'cancelled']).describe('processing while a product is left to deliver');

const address = z.object({
  firstname: z.string(),
  lastname: z.string(),
  company: z.string().nullable(),
  street: z.array(z.string()),
  postcode: z.string(),
  city: z.string(),
  country_id: z.string(),
  telephone: z.string().nullable(),
});

export const coreRefund = z.object({
  id,
  amount: z.number(),
  currency: z.string(),
  reason: z.string(),
  sale_product_ids: z.array(id),
  status: z.enum(['requested', 'paid']),
  created_at: instant,
  paid_at: instant.optional().describe('Once the refund is paid'),
});

const saleProduct = z.object({
  sale_product_id: id,
  sku: z.string(),
  name: z.string(),
  qty: id,
  price: z.number(),
  wholesale_price: z.number().nullable(),
  state: z.enum(['pending', 'acknowledged', 'refused', 'shipped', 'cancelled']).describe('refused: its supplier refused the line (see refusal)'),
  supplier: supplierName.nullable().describe('null: shipped from own stock'),
  service_order_id: z.string().nullable().describe("The supplier line's identifier, <increment_id>_<sale_product_id>; null from own stock"),
  carrier: z.string().nullable(),
  requires_appointment: z.boolean(),
  acknowledged_at: instant.nullable(),
  prepared_at: instant.nullable(),
  cancelled_at: instant.nullable(),
  tracking: z
    .object({
      number: z.string(),
      carrier: z.string().nullable(),
      url: z.string().nullable().describe("The carrier's tracking page (the supplier's when it gave one); null for a carrier without a known page"),
      by_supplier: z.boolean().describe("true: the supplier shipped with its own carrier and tracking, shown in place of our label's"),
    })
    .nullable()
    .describe('null from own stock'),
  refusal: z
    .object({
      supplier: supplierName,
      reason: z.enum(['out_of_stock', 'discontinued', 'cannot_deliver', 'other']),
      comment: z.string(),
      refused_at: instant,
    })
    .nullable()
    .describe('The supplier refused the line (until staff hand it over; kept once cancelled); null otherwise'),
});

const deliveryAppointment = z
  .object({ planning_type: planningType, date: day, time: clockTime, scheduled_at: instant })
  .nullable()
  .describe('The appointment the sale holds in the delivery planning; null until one is scheduled');

export const coreSale = z.object({
  id,
  increment_id: z.string(),
  status: saleStatus,
  source: z.string().nullable(),
  created_at: instant.describe('When the order was placed'),
  order_date: day,
  currency: z.string(),
  customer: z.object({ email: z.string(), firstname: z.string(), lastname: z.string(), phone: z.string().nullable() }),
  business_customer: z
    .object({ company_name: z.string(), siren: z.string(), siret: z.string().nullable(), vat_number: z.string().nullable() })
    .nullable()
    .describe('The company the customer buys for, as the import gave it (the SIREN from the SIRET when only that was given); null for a consumer sale'),
  shipping_address: address,
  billing_address: address.nullable(),
  payment: z.object({ method: z.string(), status: z.string(), amount_paid: z.number().nullable() }).nullable(),
  shipping_amount: z.number().nullable(),
  grand_total: z.number().nullable(),
  products: z.array(saleProduct),
  refunds: z.array(coreRefund),
  delivery_appointment: deliveryAppointment,
  delivery_service_appointment: z
    .object({ provider: z.string(), reference: z.string(), date: day.nullable(), time_window: z.string().nullable(), saved_at: instant })
    .nullable()
    .describe('An appointment a third-party delivery service gave'),
  sav_ids: z.array(id),
  savs: z.array(
    z.object({ id, status: savStatusValues, complaint_type: z.string(), sale_product_ids: z.array(id), created_at: instant, status_changed_at: instant }),
  ),
  imported_at: instant,
  cancelled_at: instant.nullable(),
  updated_at: instant,
});

const slot = z.object({
  time: clockTime,
  capacity: id,
  booked: id,
  free: id,
  full: z.boolean(),
  current: z.boolean().describe('The slot the sale holds: still available to it'),
});

export const coreRdvConfig = z.object({
  sale_id: id,
  increment_id: z.string(),
  status: saleStatus,
  planning_type: z.literal('delivery'),
  timezone: z.string(),
  requires_appointment: z.boolean(),
  range: z.object({ start: day, end: day }),
  configuration: z.object({ slot_times: z.array(clockTime), capacity_per_slot: id, working_days: z.array(id).describe('ISO weekdays, 1 = Monday') }),
  holidays: z.array(day),
  available_dates: z.array(day),
  dates: z.array(z.object({ date: day, weekday: id, available: z.boolean(), slots: z.array(slot) })),
  current_appointment: deliveryAppointment,
});

const dateAndTime = z.object({ date: day, time: clockTime });
const actionBase = { success: z.literal(true), sale_id: id, increment_id: z.string(), message: z.string() };

export const coreRdvCheck = z.object({
  success: z.literal(true),
  sale_id: id,
  increment_id: z.string(),
  status: z.enum(['available', 'scheduled', 'unavailable', 'not_schedulable']),
  appointment: dateAndTime.describe("The token's appointment"),
  schedulable: z.boolean(),
  slot_available: z.boolean(),
  reason: z.object({ code: z.string(), message: z.string() }).nullable().describe('Why the slot cannot be booked'),
  current_appointment: dateAndTime.nullable(),
  available_dates: z.array(day),
  available_slots: z.record(z.string(), z.array(clockTime)).describe('The free slots of each available day'),
  range: z.object({ start: day, end: day }),
  timezone: z.string(),
});

export const coreRdvApplied = z.object({
  ...actionBase,
  status: z.enum(['scheduled', 'unchanged']),
  appointment: dateAndTime,
  previous_appointment: dateAndTime.nullable(),
});

export const coreAddressChanged = z.object({ ...actionBase, status: z.enum(['updated', 'unchanged']), shipping_address: z.record(z.string(), z.unknown()) });

export const coreDeliveryRdvSaved = z.object({
  ...actionBase,
  status: z.enum(['saved', 'unchanged']),
  delivery_appointment: z.object({ provider: z.string(), reference: z.string(), date: day.nullable(), time_window: z.string().nullable() }),
});

export const coreSaleCancelled = z.object({
  ...actionBase,
  status: z.enum(['cancelled', 'unchanged']),
  cancelled_sale_product_ids: z.array(id),
  sale_cancelled: z.boolean(),
  refund: z.object({ id, amount: z.number(), currency: z.string(), status: z.literal('requested') }).nullable(),
  credit_note: z
    .object({ number: z.string().describe('AV-<year>-<n>'), invoice_number: z.string().describe('FA-<year>-<n>, the invoice it corrects'), amount: z.number() })
    .nullable()
    .describe('Issued when products already invoiced were cancelled; its PDF at GET /api/sale-credit-note/{invoice token}/{number}. null otherwise.'),
});

export const coreOrderImported = z.object({
  success: z.literal(true),
  created: z.boolean().describe('false: the same order was imported before; nothing was recorded'),
  message: z.string(),
  sale_id: id,
  increment_id: z.string(),
  sale_product_ids: z.array(id),
  supplier_lines: z.array(z.object({ sale_product_id: id, service_order_id: z.string(), supplier: supplierName })),
});

export const coreProductFound = z
  .record(z.string(), z.unknown())
  .describe('The requested columns (every column by default), in the requested order; a field never set is null');

export const coreLeadRecorded = z.object({ success: z.literal(true), lead_id: z.uuid().describe('The lead ID (a UUID)'), message: z.string() });

export const coreSavCreated = z.object({
  success: z.literal(true),
  message: z.string(),
  sav_id: id,
  appointment: dateAndTime.nullable().describe('The booked appointment, when rdv_date and rdv_time were both given'),
  files: z.array(savFile),
});

export const coreFileUploaded = z.object({
  success: z.literal(true),
  message: z.string(),
  file: z.object({
    id: z.string(),
    complaint_id: id,
    category: z.string(),
    kind: z.enum(['image', 'video', 'document']),
    name: z.string(),
    stored_name: z.string(),
    content_type: z.string(),
    size: id,
  }),
});

export const coreFileStored = z.object({ success: z.literal(true), file: savFile });

export const corePlanningOccupied = z.object({
  success: z.literal(true),
  dates: z.array(day),
  range: z.object({ start: day, end: day }),
  occupied: z.record(z.string(), z.record(z.string(), id)).describe('Per requested day ({} when nothing is taken), the places taken per slot HH:MM'),
  holidays: z.array(day),
  timezone: z.string(),
});

export const coreHolidays = z.union([z.array(day), z.array(z.object({ date: day, label: z.string().nullable() }))]);
