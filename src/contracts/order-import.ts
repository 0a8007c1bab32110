import { z } from 'zod';
import { amount, maxAmount, quantity } from '../events/catalogue/bounded-numbers.ts';
import { address, supplierName } from '../events/catalogue/common-schemas.ts';
import { lineCents, sumCents, toCents } from '../events/sales/money.ts';
import { unknownFieldsProblem } from '../events/sales/unknown-fields-bounds.ts';
import { unknownFields } from './unknown-fields.ts';

/**
 * The order-import contract (shared/contracts/order-import.schema.json) as a zod schema: the body of
 * POST /api/api-add-new-order-api-shopping and the items of `orders import` files.
 *
 * One deliberate difference with the JSON schema, which refuses unknown keys: every field the service
 * uses is validated as strictly, and any other field is accepted and left out of the parsed order,
 * because real marketplace payloads carry dozens of fields beyond the contract. The import keeps them
 * with the order for audit (contracts/unknown-fields.ts, read from the raw payload) and no logic sees them.
 *
 * A second one: the JSON schema bounds prices and totals only below (minimum 0). Here every amount is
 * a finite number of euros from 0 to 1,000,000.00 with at most 2 decimals, a quantity at most 10,000
 * (as the schema says), and the lines with the shipping add up to at most 1,000,000.00: an order of
 * 1e308 would overflow every sum made of it (catalogue/bounded-numbers.ts).
 */

const objectOf = z.object;
const orderAddress = objectOf(address.shape);

const orderItem = objectOf({
  sku: z.string().min(1).max(64),
  name: z.string().min(1).max(255),
  qty_ordered: quantity,
  price: amount,
  wholesale_price: amount.optional(),
  supplier: supplierName.nullable().optional(),
  carrier: z.string().max(64).optional(),
  requires_appointment: z.boolean().optional(),
});

export const orderImportPayload = objectOf({
  source: z.string().min(1).max(64).optional(),
  increment_id: z.string().regex(/^[0-9]{1,20}$/, 'digits only, 1 to 20'),
  created_at: z.iso.datetime({ offset: true }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'three capital letters, e.g. EUR')
    .optional(),
  customer: objectOf({
    email: z.email().max(254),
    firstname: z.string().min(1).max(100),
    lastname: z.string().min(1).max(100),
    phone: z.string().max(32).optional(),
  }),
  shipping_address: orderAddress,
  billing_address: orderAddress.optional(),
  items: z.array(orderItem).min(1).max(200),
  payment: objectOf({
    method: z.string().max(64),
    status: z.enum(['paid', 'pending', 'failed', 'refunded']),
    amount_paid: amount.optional(),
  }).optional(),
  shipping_amount: amount.optional(),
  grand_total: amount.optional(),
}).superRefine((order, context) => {
  const cents = sumCents(order.items.map((item) => lineCents({ price: item.price, qty: item.qty_ordered }))) + toCents(order.shipping_amount ?? 0);
  if (cents > toCents(maxAmount)) {
    context.addIssue({ code: 'custom', path: ['items'], message: `the lines and the shipping add up to more than ${maxAmount}` });
  }
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
