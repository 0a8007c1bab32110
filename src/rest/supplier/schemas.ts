import { z } from 'zod';
import { lineRefusalReason } from '../../events/sales/events.ts';
import { blankAsAbsent } from '../blank-as-absent.ts';
import { documentedAs } from '../documented-as.ts';
import { queryParameters } from '../query-parameters.ts';
import { unknownParameters } from './supplier-answers.ts';

/**
 * The supplier API's inputs and answers, parsed at the edge and printed in the OpenAPI document. Both
 * suppliers (`supplier-a`, `supplier-b`) use the same shapes under their own path segment.
 */

export const getSalesPageSize = 100;

const serviceOrderIdFormat = /^\d+_\d+$/;
const isoDate = z.iso.date();

const isPageNumber = (value: string): boolean => /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) && Number(value) >= 1;
const isDate = (value: string): boolean => isoDate.safeParse(value).success;

/**
 * One query parameter, its errors naming it. A repeated parameter is refused (which value was meant
 * cannot be guessed); an empty one counts as absent, since some clients send every parameter.
 */
const parameter = (name: string, isValid: (value: string) => boolean, expected: string, documented: Record<string, unknown> = {}) =>
  // What the parameter is, for the OpenAPI document: the text it arrives as is read by the refinement.
  documentedAs(
    z
      .string({ error: `Invalid ${name}: expected a single value` })
      .refine((value) => value === '' || isValid(value), `Invalid ${name}: expected ${expected}`)
      .transform((value) => (value === '' ? undefined : value))
      .optional(),
    { anyOf: [{ type: 'string', ...documented }, { const: '' }] },
  );

/** GET /api/{supplier}/get-sales. A parameter it does not know is refused: a misspelt filter must not list everything. */
export const getSalesQuery = queryParameters(
  {
    page: parameter('page', isPageNumber, 'a positive integer', { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }).describe(
      `Page number, from 1 (default 1), ${getSalesPageSize} lines per page; with last_service_order_number, pages count from the cursor. A page past the end is [].`,
    ),
    date_from: parameter('date_from', isDate, 'a date YYYY-MM-DD', { format: 'date' }).describe(
      'Only lines ordered on or after this day (order_date, inclusive).',
    ),
    date_to: parameter('date_to', isDate, 'a date YYYY-MM-DD', { format: 'date' }).describe(
      'Only lines ordered on or before this day (order_date, inclusive).',
    ),
    last_service_order_number: parameter(
      'last_service_order_number',
      (value) => serviceOrderIdFormat.test(value),
      'a service_order_id <increment_id>_<sale_product_id>',
      { pattern: '^\\d+_\\d+$' },
    ).describe(
      'Cursor: only the lines after this one in the listing order (order_date, increment_id, sale_product_id). It must name a line of this supplier, open or not.',
    ),
    order_number: parameter('order_number', (value) => /^\d+$/.test(value), "an order's increment_id (digits)", { pattern: '^\\d+$' }).describe(
      "Only this order's lines, by its increment_id. Accepted by both suppliers.",
    ),
  },
  unknownParameters,
)
  .refine((query) => query.date_from === undefined || query.date_to === undefined || query.date_from <= query.date_to, {
    message: 'Invalid date_from: it is after date_to',
    path: ['date_from'],
  })
  .transform((query) => ({
    page: query.page === undefined ? 1 : Number(query.page),
    dateFrom: query.date_from,
    dateTo: query.date_to,
    afterCursor: query.last_service_order_number,
    orderNumber: query.order_number,
  }));
export type GetSalesQuery = z.output<typeof getSalesQuery>;

/** POST /api/{supplier}/acknowledge-sale and /ship-sale. */
export const serviceOrderBody = z.object({
  service_order_id: z.string().regex(serviceOrderIdFormat).describe('The line: <increment_id>_<sale_product_id>.'),
});

/**
 * POST /api/{supplier}/ship-sale: the legacy body, and optionally the supplier's own carrier and
 * tracking when the parcel leaves without our label (carrier and tracking_number together; the URL may
 * be left out). Empty or null fields count as absent, so a legacy body reads exactly as before.
 */
export const shipSaleBody = serviceOrderBody
  .extend({
    carrier: blankAsAbsent(z.string().trim().min(1).max(64)).describe("The supplier's own carrier, when it did not ship with our label."),
    tracking_number: blankAsAbsent(z.string().trim().min(1).max(64)).describe("The parcel's number at that carrier."),
    tracking_url: blankAsAbsent(z.url({ protocol: /^https$/, error: 'expected an https URL' }).max(2048)).describe(
      "The carrier's tracking page for this parcel (https).",
    ),
  })
  .refine((body) => (body.carrier === undefined) === (body.tracking_number === undefined), {
    message: 'carrier and tracking_number go together',
    path: ['tracking_number'],
  })
  .refine((body) => body.tracking_url === undefined || body.tracking_number !== undefined, {
    message: 'a tracking_url needs its carrier and tracking_number',
    path: ['tracking_url'],
  })
  .transform(({ service_order_id, carrier, tracking_number, tracking_url }) => ({
    service_order_id,
    supplierTracking:
      carrier === undefined || tracking_number === undefined ? undefined : { carrier, trackingNumber: tracking_number, trackingUrl: tracking_url ?? null },
  }));

/** POST /api/{supplier}/refuse-sale: the supplier will not ship the line. */
export const refuseSaleBody = serviceOrderBody
  .extend({
    reason: lineRefusalReason.describe('out_of_stock, discontinued, cannot_deliver or other.'),
    comment: blankAsAbsent(z.string().trim().max(1000)).describe('In your words, about the product (never the customer). Required with reason other.'),
  })
  .refine((body) => body.reason !== 'other' || (body.comment ?? '') !== '', { message: 'a comment is required with reason other', path: ['comment'] })
  .transform(({ service_order_id, reason, comment }) => ({ service_order_id, reason, comment: comment ?? '' }));

export const supplierSaleLine = z.object({
  service_order_id: z.string().regex(serviceOrderIdFormat).describe('<increment_id>_<sale_product_id>'),
  sku: z.string(),
  quantity: z.number().int(),
  price: z.number().nullable().describe('Wholesale unit price; null when unknown.'),
  link_to_label: z
    .url()
    .describe(
      'The shipping label PDF, a signed link that opens without a token until it expires: {base_url}/api/files/labels/<supplier>/<service_order_id>.pdf?expires=<unix seconds>&signature=<base64url>. It stays valid 24 to 25 hours after it was signed (a cached answer of supplier-a holds links signed up to 30 minutes earlier).',
    ),
  order_date: z.iso.date().describe("The order's day in the planning time zone."),
  carrier: z.string().nullable(),
});
export type SupplierSaleLine = z.infer<typeof supplierSaleLine>;

/** The open lines (not shipped, not cancelled; acknowledged ones stay until shipped), in the listing order. */
export const getSalesResponse = z.array(supplierSaleLine);

export const getSalesHeaders = z.object({
  Link: z
    .string()
    .optional()
    .describe(
      'When the page is full: <url>; rel="next", the absolute URL of the next page, walked by cursor (last_service_order_number = the last line of this page), so that following it never skips nor repeats a line while lines are shipped in between.',
    ),
  'X-Page': z.string().regex(/^\d+$/).describe('The page answered.'),
  'X-Page-Size': z.string().regex(/^\d+$/).describe(`Lines per page (${getSalesPageSize}).`),
  'X-Cache': z
    .enum(['HIT', 'MISS'])
    .describe('supplier-a: HIT when answered from its 30-minute cache of this query. supplier-b reads fresh data: always MISS.'),
});

/** Every answer of acknowledge-sale and ship-sale, and the supplier API's 400 and 404 bodies. */
export const supplierResult = z.object({ success: z.boolean(), message: z.string() });

export const supplierUnauthorized = z.object({ error: z.string(), message: z.string() });
