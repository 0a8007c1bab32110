import { isBoundedAmount, maxAmount } from './bounded-numbers.ts';
import type { Upcaster } from './define-event.ts';
import { roundToCents } from './money.ts';

/**
 * Reading the amounts of events recorded before amounts were bounded (version 1 of the events that
 * carry money): a log may hold 1e308, written when the edge took any number. Such a value is read
 * within the bounds, and the repair reported, so that no decision, read model or sum sees it.
 */

export type Repaired = Parameters<Upcaster>[1];

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An amount clamped into [0, maxAmount] and rounded to the cent. A value that is not a number is left
 * as it is, for the schema to judge (null where the field is nullable).
 */
export const amountOnRead = (value: unknown, field: string, repaired: Repaired): unknown => {
  if (typeof value !== 'number' || isBoundedAmount(value)) return value;
  if (Number.isNaN(value) || value < 0) {
    repaired(field, value, 0, 'was negative or not a number: read as 0');
    return 0;
  }
  if (value > maxAmount) {
    repaired(field, value, maxAmount, `was beyond ${maxAmount}: read as ${maxAmount}`);
    return maxAmount;
  }
  const read = roundToCents(value);
  repaired(field, value, read, 'had more than 2 decimals: rounded to the cent');
  return read;
};

/** `amountOnRead` on the named fields of an object that are present. */
export const amountsOnRead = (data: unknown, fields: readonly string[], path: string, repaired: Repaired): unknown => {
  if (!isRecord(data)) return data;
  const read = { ...data };
  for (const field of fields) if (field in read) read[field] = amountOnRead(read[field], `${path}${field}`, repaired);
  return read;
};
