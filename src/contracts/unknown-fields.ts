import { z } from 'zod';
import type { UnknownFields } from '../events/sales/import-sale.ts';

/**
 * The fields of a payload that its schema does not name: what a marketplace sends beyond the contract.
 * They are kept for audit, not acted on. The answer mirrors the payload's shape, holding only the
 * unknown keys: `{ coupon: 'WELCOME10', customer: { loyalty_tier: 'gold' }, items: [{}, { colour: 'oak' }] }`.
 * An array of objects keeps one entry per element (empty when that element has no unknown field), so
 * that `items.1.colour` still names the line it came from. Undefined when every field is known.
 */

/** The schema under its optional, nullable or default wrappers. */
const unwrapped = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault ? unwrapped(schema.unwrap() as z.ZodType) : schema;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const unknownIn = (schema: z.ZodType, value: unknown): z.core.util.JSONType | undefined => {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodObject && isRecord(value)) {
    const { shape } = inner;
    // Entries, not assignments: a key such as `__proto__` is kept as data, never as a prototype.
    const found = Object.entries(value).flatMap(([key, field]): [string, z.core.util.JSONType][] => {
      if (!Object.hasOwn(shape, key)) return [[key, field as z.core.util.JSONType]];
      const nested = unknownIn(shape[key] as z.ZodType, field);
      return nested === undefined ? [] : [[key, nested]];
    });
    return found.length > 0 ? Object.fromEntries(found) : undefined;
  }
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    const found = value.map((item) => unknownIn(inner.element as z.ZodType, item));
    return found.some((entry) => entry !== undefined) ? found.map((entry) => entry ?? {}) : undefined;
  }
  return undefined;
};

/** The unknown fields of `value` (a JSON payload already accepted by `schema`), or undefined. */
export const unknownFields = (schema: z.ZodObject, value: unknown): UnknownFields | undefined => unknownIn(schema, value) as UnknownFields | undefined;
