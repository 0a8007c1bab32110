import { z } from 'zod';
import { amount } from './bounded-numbers.ts';
import { erased } from './personal-data.ts';

/** Shapes shared by several capabilities' events. */

export const instant = z.iso.datetime({ offset: true });
export const localDate = z.iso.date();
export const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM');
export const positiveId = z.number().int().positive();
/** An amount in the sale's currency, within the bounds of bounded-numbers.ts. */
export const money = amount;
export const supplierName = z.enum(['supplier-a', 'supplier-b']);
export type SupplierName = z.infer<typeof supplierName>;

/** An e-mail address in an event: read as `[erased]` once its customer was erased. */
export const personalEmail = (schema: z.ZodString = z.string().email()) => schema.or(z.literal(erased));

export const address = z.object({
  firstname: z.string().min(1).max(100),
  lastname: z.string().min(1).max(100),
  company: z.string().max(100).optional(),
  street: z.array(z.string().min(1).max(255)).min(1).max(4),
  postcode: z.string().min(1).max(16),
  city: z.string().min(1).max(100),
  country_id: z.string().regex(/^[A-Z]{2}$/),
  telephone: z.string().max(32).optional(),
});
export type Address = z.infer<typeof address>;

/**
 * The company a business customer buys for, as its invoices name it: its name, its SIREN (the first 9
 * digits of its SIRET when the order gave one) and its intra-EU VAT number when it has one. The
 * identifiers are checked with their keys where they enter (contracts/business-customer.ts).
 */
export const businessCustomer = z.object({
  companyName: z.string().min(1).max(255),
  siren: z.string().regex(/^\d{9}$/),
  siret: z
    .string()
    .regex(/^\d{14}$/)
    .nullable(),
  vatNumber: z
    .string()
    .regex(/^FR[0-9A-Z]{2}\d{9}$/)
    .nullable(),
});
export type BusinessCustomer = z.infer<typeof businessCustomer>;

export const planningType = z.enum(['sav', 'delivery']);
export type PlanningType = z.infer<typeof planningType>;

/** Whose appointment holds a planning place: a SAV or a sale's delivery. */
export const bookingRef = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sav'), savId: positiveId }),
  z.object({ kind: z.literal('sale'), saleId: positiveId, incrementId: z.string() }),
]);
export type BookingRef = z.infer<typeof bookingRef>;
