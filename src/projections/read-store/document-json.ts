import type { Document } from './read-store.ts';

/**
 * Documents as JSON text, as the embedded read store keeps them. JSON has no dates, so a `Date` is
 * written as `{"$date": "<ISO instant>"}` (MongoDB's extended JSON) and read back as a `Date`.
 */

const dateToExtendedJson = function (this: Date): { $date: string } {
  return { $date: this.toISOString() };
};

/**
 * `Date.prototype.toJSON` is swapped for the extended form during this one synchronous call: a
 * replacer function would see every value of every document and double the cost of each write.
 */
export const documentToJson = (doc: Document): string => {
  const toJSON = Date.prototype.toJSON;
  Date.prototype.toJSON = dateToExtendedJson as unknown as typeof toJSON;
  try {
    return JSON.stringify(doc);
  } finally {
    Date.prototype.toJSON = toJSON;
  }
};

const reviveDates = (_key: string, value: unknown): unknown => {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$date' && typeof (value as { $date: unknown }).$date === 'string') {
      return new Date((value as { $date: string }).$date);
    }
  }
  return value;
};

/** The reviver costs a call per value: only text that can hold a date pays it. */
export const documentFromJson = <T = Document>(text: string): T => (text.includes('"$date"') ? JSON.parse(text, reviveDates) : JSON.parse(text)) as T;
