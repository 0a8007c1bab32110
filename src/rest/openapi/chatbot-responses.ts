import { z } from 'zod';
import { savStatusValues } from '../../events/after-sales/events.ts';
import { savStatusLabels } from '../chatbot/sav-presenter.ts';

/**
 * The chatbot API's answers as schemas. The presenters build plain objects; these say what they build,
 * for the OpenAPI document, and a spec checks the real answers against the printed document so the
 * two cannot drift apart. Unknown text is "" where the presenters say so, null where they keep null.
 */

const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
  .describe('An instant at the second, in the planning time zone with its offset (RFC 3339), e.g. 2026-07-07T21:40:54+02:00');
const day = z.iso.date();
const amount = z.number();
const stockStatus = z.enum(['in_stock', 'out_of_stock', 'backorder']);

/** A file of a SAV (src/rest/sav-files/sav-file-presenter.ts). */
export const savFile = z.object({
  id: z.string().describe('The file ID (a UUID)'),
  kind: z.enum(['image', 'video', 'document']),
  category: z.string().describe('photo or video (chatbot), image or video (core), or the prefix of an upload'),
  name: z.string(),
  state: z.enum(['pending', 'stored', 'failed']).describe('pending: to be fetched from its URL (again); stored: downloadable; failed: given up'),
  content_type: z.string().nullable(),
  size: z.number().int().nullable().describe('In bytes, once stored'),
  source_url: z.string().nullable().describe('The URL it was given by; null for a data URL'),
  attempts: z.number().int().describe('Fetch attempts made'),
  last_error: z.string().nullable(),
  next_attempt_at: instant.nullable().describe('When the next fetch attempt is due; null unless pending'),
  attached_at: instant,
  download_url: z.string().nullable().describe('Once stored: GET it with the X-API-Token'),
});

export const savRecord = z.object({
  id: z.number().int().describe('The SAV ID'),
  sale_ref: z.string().describe("The order's increment ID"),
  status: savStatusValues.describe('in_progress while open, then resolved, closed or cancelled; resolved and closed SAVs can be reopened'),
  status_label: z.enum(Object.values(savStatusLabels) as [string, ...string[]]).describe('The status in French, as shown to the customer'),
  complaint_type: z.string().describe("The complaint's category"),
  created_at: instant,
  status_changed_at: instant.describe('When the status last changed (created_at until then)'),
  resolution: z.string().nullable().describe('What was done, while resolved or closed; null otherwise'),
  products: z.array(z.object({ sku: z.string(), name: z.string() })),
  files: z.array(savFile),
});

const orderedProduct = z.object({
  sale_product_id: z.number().int(),
  sku: z.string(),
  name: z.string(),
  qty: z.number().int(),
  price: amount,
  tracking: z.string().describe('"" when unknown'),
  carrier: z.string().describe('"" when unknown'),
  availability: z.string().nullable().describe('null when the SKU is no longer catalogued'),
  stock_status: stockStatus.nullable().describe('null when the SKU is no longer catalogued'),
  delivery_status: z.enum(['pending', 'acknowledged', 'refused', 'shipped', 'cancelled']).describe('refused: the supplier refused the line'),
  shipped_at: instant.nullable(),
  container_tracking: z
    .object({
      tracking_number: z.string(),
      carrier: z.string(),
      tracking_url: z.string().nullable().describe('The tracking page the supplier gave with its own carrier; null otherwise'),
    })
    .nullable()
    .describe("The shipment reference of a drop-shipped line: the supplier's own carrier and tracking when it shipped with them, else our label's"),
  refusal_reason: z.enum(['out_of_stock', 'discontinued', 'cannot_deliver', 'other']).nullable().describe('Why the supplier refused the line; null otherwise'),
});

const saleStatus = z.enum(['processing', 'complete', 'cancelled']);

export const saleDetailsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    id: z.number().int(),
    incrementId: z.string(),
    status: saleStatus,
    created_at: instant,
    order_date: day,
    grand_total: amount,
    shipping_amount: amount,
    currency: z.string(),
    customer: z.object({ firstname: z.string(), lastname: z.string(), email: z.string() }),
    products: z.array(orderedProduct),
    payment: z.object({ method: z.string().nullable(), status: z.string().nullable(), amount_paid: amount.nullable() }),
    sav_status: z.object({
      has_sav: z.boolean(),
      sav_count: z.number().int().describe('Every SAV of the order, whatever its status'),
      in_progress_count: z.number().int().describe('Those in progress'),
    }),
    sav_history: z.array(savRecord),
  }),
});

export const customerDetailsResponse = z.object({
  success: z.literal(true),
  customer: z.object({
    email: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    orders: z
      .array(
        z.object({
          increment_id: z.string(),
          status: saleStatus,
          created_at: instant,
          order_date: day,
          grand_total: amount,
          currency: z.string(),
        }),
      )
      .describe('Latest first'),
    sav_history: z.array(savRecord),
  }),
});

export const productResponse = z.object({
  success: z.literal(true),
  product: z.object({
    sku: z.string(),
    name: z.string(),
    price: amount,
    description: z.string(),
    availability: z.string(),
    images: z.array(z.string()),
    stock_status: stockStatus,
    stock_qty: z.number().int().nullable(),
    ean14: z.string().nullable(),
  }),
});

export const savCreatedMessage = 'Votre demande SAV a bien été enregistrée';

export const savCreatedResponse = z.object({
  success: z.literal(true),
  sav_id: z.number().int(),
  message: z.literal(savCreatedMessage),
  files: z.array(savFile).describe('Data URLs are stored at once; URLs are pending until the fetch job has fetched them'),
});

export const savStatusResponse = z.object({ success: z.literal(true), sav_records: z.array(savRecord) });

/** Every chatbot error: a French title and a French sentence, shown to the customer as they are. */
export const chatbotError = z.object({ success: z.literal(false), error: z.string(), message: z.string() });
