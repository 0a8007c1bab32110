import { z } from 'zod';
import { address, supplierName } from '../events/catalogue/common-schemas.ts';

/**
 * The order-import contract (shared/contracts/order-import.schema.json) as a zod schema: the body of
 * POST /api/api-add-new-order-api-shopping and the items of `orders import` files.
 *
 * One deliberate difference with the JSON schema, which refuses unknown keys: every field the service
 * uses is validated as strictly, and any other field is accepted and left out of the parsed order,
 * because real marketplace payloads carry dozens of fields beyond the contract. The import keeps them
 * with the order for audit (contracts/unknown-fields.ts, read from the raw payload) and no logic sees them.
 */

const objectOf = z.object;
const orderAddress = objectOf(address.shape);

const orderItem = objectOf({
  sku: z.string().min(1).max(64),
  name: z.string().min(1).max(255),
  qty_ordered: z.number().int().min(1).max(10000),
  price: z.number().min(0),
  wholesale_price: z.number().min(0).optional(),
  supplier: supplierName.nullable().optional(),
  carrier: z.string().max(64).optional(),
  requires_appointment: z.boolean().optional(),
});

export const orderImportPayload = objectOf({
  source: z.string().min(1).max(64).optional(),
  increment_id: z.string().regex(/^[0-9]{1,20}$/, 'digits only, 1 to 20'),
  created_at: z.iso.datetime({ offset: true }),
  currency: z.string().regex(/^[A-Z]{3}$/, 'three capital letters, e.g. EUR').optional(),
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
    amount_paid: z.number().min(0).optional(),
  }).optional(),
  shipping_amount: z.number().min(0).optional(),
  grand_total: z.number().min(0).optional(),
});

export type OrderImportInput = z.infer<typeof orderImportPayload>;

/** `orders import` files: one payload or an array of them, read as an array (issues name `0.items.1.price`). */
export const orderImportFile = z.preprocess((value) => (Array.isArray(value) ? value : [value]), z.array(orderImportPayload).min(1));
