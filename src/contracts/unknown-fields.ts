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

/**
 * What of a schema tells known fields from unknown ones: its objects' keys and its arrays' items, read
 * once per schema (zod's class checks cost more than the walk over a payload they would be made for).
 */
type Outline = { kind: 'object'; fields: ReadonlyMap<string, Outline> } | { kind: 'array'; item: Outline } | { kind: 'other' };

const outlines = new WeakMap<z.ZodType, Outline>();
const outlineOf = (schema: z.ZodType): Outline => {
  const known = outlines.get(schema);
  if (known) return known;
  const inner = unwrapped(schema);
  let outline: Outline;
  if (inner instanceof z.ZodObject) {
    // Filled after it is cached: a schema that contains itself (through a getter) gets this same outline.
    const fields = new Map<string, Outline>();
    outline = { kind: 'object', fields };
    outlines.set(schema, outline);
    for (const [key, field] of Object.entries(inner.shape)) fields.set(key, outlineOf(field as z.ZodType));
  } else {
    outline = inner instanceof z.ZodArray ? { kind: 'array', item: outlineOf(inner.element as z.ZodType) } : { kind: 'other' };
    outlines.set(schema, outline);
  }
  return outline;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const unknownIn = (outline: Outline, value: unknown): z.core.util.JSONType | undefined => {
  if (outline.kind === 'object' && isRecord(value)) {
    // Entries, not assignments: a key such as `__proto__` is kept as data, never as a prototype.
    const found: [string, z.core.util.JSONType][] = [];
    for (const [key, field] of Object.entries(value)) {
      const known = outline.fields.get(key);
      if (known === undefined) found.push([key, field as z.core.util.JSONType]);
      else {
        const nested = unknownIn(known, field);
        if (nested !== undefined) found.push([key, nested]);
      }
    }
    return found.length > 0 ? Object.fromEntries(found) : undefined;
  }
  if (outline.kind === 'array' && Array.isArray(value)) {
    const found = value.map((item) => unknownIn(outline.item, item));
    return found.some((entry) => entry !== undefined) ? found.map((entry) => entry ?? {}) : undefined;
  }
  return undefined;
};

/** The unknown fields of `value` (a JSON payload already accepted by `schema`), or undefined. */
export const unknownFields = (schema: z.ZodObject, value: unknown): UnknownFields | undefined =>
  unknownIn(outlineOf(schema), value) as UnknownFields | undefined;
