import { z } from 'zod';
import { amount, maxAmount, quantity } from '../events/schema/bounded-numbers.ts';
import { address, supplierName } from '../events/schema/common-schemas.ts';
import { lineCents, sumCents, toCents } from '../events/schema/money.ts';
import { unknownFieldsProblem } from '../events/sales/unknown-fields-bounds.ts';
import { businessCustomerInput } from './business-customer.ts';
import { unknownFields } from './unknown-fields.ts';

/**
 * The order-import contract: the body of POST /api/api-add-new-order-api-shopping and the items of
 * `orders import` files. This schema is the contract; its JSON Schema (json-schemas.ts) is generated
 * from it, with the descriptions and defaults given here as metadata.
 *
 * One deliberate difference with the legacy contract, which refused unknown keys: every field the
 * service uses is validated as strictly, and any other field is accepted and left out of the parsed
 * order, because real marketplace payloads carry dozens of fields beyond the contract. The import keeps
 * them with the order for audit (contracts/unknown-fields.ts, read from the raw payload) and no logic sees them.
 *
 * A second one: `business_customer`, this service's extension, which the legacy contract did not have
 * (its payloads, without it, are consumer sales as before).
 *
 * A third one: the legacy contract bounded prices and totals only below (minimum 0). Here every amount
 * is a finite number of euros from 0 to 1,000,000.00 with at most 2 decimals, a quantity at most 10,000,
 * and the lines with the shipping add up to at most 1,000,000.00: an order of 1e308 would overflow
 * every sum made of it (schema/bounded-numbers.ts). JSON Schema cannot say the last two rules of
 * amounts; the contract's description does.
 */

const objectOf = z.object;
const orderAddress = objectOf(address.shape);

const orderItem = objectOf({
  sku: z.string().min(1).max(64),
  name: z.string().min(1).max(255),
  qty_ordered: quantity,
  price: amount.describe('Retail unit price, tax included.'),
  wholesale_price: amount.describe("Supplier unit price; when absent, the catalog's wholesale_price for the SKU.").optional(),
  supplier: supplierName
    .nullable()
    .describe("Drop-ship supplier that ships this line, or null when it ships from the operator's own stock. When absent, the catalog's supplier for the SKU.")
    .optional(),
  carrier: z.string().max(64).describe("Carrier name; when absent, the catalog's carrier for the SKU.").optional(),
  requires_appointment: z.boolean().meta({ description: 'Delivery needs an appointment with the customer (bulky goods).', default: false }).optional(),
});

export const orderImportPayload = objectOf({
  source: z.string().min(1).max(64).meta({ description: 'Channel the order came from (marketplace name).', default: 'shopping-api' }).optional(),
  increment_id: z
    .string()
    .regex(/^[0-9]{1,20}$/, 'digits only, 1 to 20')
    .describe('Order number assigned by the e-commerce platform: digits only.'),
  created_at: z.iso.datetime({ offset: true }).describe('Order creation instant, RFC 3339 with offset.'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'three capital letters, e.g. EUR')
    .meta({ default: 'EUR' })
    .optional(),
  customer: objectOf({
    email: z.email().max(254),
    firstname: z.string().min(1).max(100),
    lastname: z.string().min(1).max(100),
    phone: z.string().max(32).optional(),
  }),
  business_customer: businessCustomerInput.optional(),
  shipping_address: orderAddress,
  billing_address: orderAddress.optional(),
  items: z.array(orderItem).min(1).max(200),
  payment: objectOf({
    method: z.string().max(64),
    status: z.enum(['paid', 'pending', 'failed', 'refunded']),
    amount_paid: amount.optional(),
  }).optional(),
  shipping_amount: amount.meta({ default: 0 }).optional(),
  grand_total: amount.describe('When absent, the lines (price x qty_ordered) and the shipping added up.').optional(),
})
  .superRefine((order, context) => {
    const cents = sumCents(order.items.map((item) => lineCents({ price: item.price, qty: item.qty_ordered }))) + toCents(order.shipping_amount ?? 0);
    if (cents > toCents(maxAmount)) {
      context.addIssue({ code: 'custom', path: ['items'], message: `the lines and the shipping add up to more than ${maxAmount}` });
    }
  })
  .meta({
    title: 'Order import',
    description:
      'One order as the shopping (marketplace) API exports it: the body of POST /api/api-add-new-order-api-shopping, and each order of an `orders import` file (which holds one order or an array of them). ' +
      'The service assigns the integer sale ID and one integer sale_product_id per line. An increment_id imported before with the same content changes nothing and answers with the existing sale; with other content it is refused. ' +
      'Fields beyond these, at any level, are accepted and kept with the order for audit, never acted on. ' +
      'Every amount has at most 2 decimals, and the lines (price x qty_ordered) with the shipping add up to at most 1000000. ' +
      'A business_customer has a SIREN or a SIRET with a valid check digit, and its VAT number, when given, is the one of that SIREN.',
  });

export type OrderImportInput = z.infer<typeof orderImportPayload>;

/**
 * The payload as the import takes it: the contract's fields, and the fields beyond it within the
 * bounds an order's events keep (events/sales/unknown-fields-bounds.ts), the first one beyond them named.
 */
export const orderImportBody = z.preprocess((value, context) => {
  const extra = unknownFields(orderImportPayload, value);
  const problem = extra && unknownFieldsProblem(extra);
  if (problem) context.addIssue({ code: 'custom', path: problem.field.split('.'), message: problem.message, input: value });
  return value;
}, orderImportPayload);

/** `orders import` files: one payload or an array of them, read as an array (issues name `0.items.1.price`). */
export const orderImportFile = z.preprocess((value) => (Array.isArray(value) ? value : [value]), z.array(orderImportBody).min(1));
