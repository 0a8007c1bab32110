/**
 * Personal data in events: which fields of an event hold it, and whose it is. Each event type that
 * carries some declares it beside its schema (`defineEvent(..., { personal })`); the encrypting event
 * store (encrypting-event-store.ts) seals those fields with the customer's key, and reads them back as
 * `erased` once the key is gone.
 */

/** What an erased field reads as: a string stands for the string, `[erased]` for a list, `{}` for a record. */
export const erased = '[erased]';

export const isErased = (value: unknown): boolean => value === erased;

/**
 * Whose personal data an event holds: the customer of an e-mail address in its data; the customer
 * of another stream (a SAV is its sale's customer's); or, when absent, the customer of its own stream
 * (an address update names no e-mail: the sale's import did).
 */
export type DataSubject = { email: string } | { stream: string };

export type PersonalDataRule = {
  /** Dotted paths of the fields in the event's data (`customer.email`, `shippingAddress.street`). */
  readonly fields: readonly string[];
  readonly subject?: (data: Record<string, unknown>) => DataSubject;
};

/** The fields of an address that tell who and where someone is; the country is kept (VAT, statistics). */
export const addressFields = (prefix: string): string[] =>
  ['firstname', 'lastname', 'company', 'street', 'postcode', 'city', 'telephone'].map((field) => `${prefix}.${field}`);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The erased form of a value: null and absent stay so (nothing to hide), the rest become the marker. */
export const erasedValue = (value: unknown): unknown => {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return [erased];
  if (isRecord(value)) return {};
  return erased;
};

/** The value at a dotted path; undefined when a step is missing. */
export const valueAt = (data: unknown, path: string): unknown => {
  let current: unknown = data;
  for (const step of path.split('.')) {
    if (!isRecord(current)) return undefined;
    current = current[step];
  }
  return current;
};

/**
 * A copy of `data` with the value at each path replaced by `replace(value, path)`; objects on the way
 * are copied, never changed in place. A path whose value is null or absent is left as it is.
 */
export const withValuesAt = <T>(data: T, paths: readonly string[], replace: (value: unknown, path: string) => unknown): T => {
  let result: unknown = data;
  for (const path of paths) {
    const steps = path.split('.');
    const set = (node: unknown, index: number): unknown => {
      if (!isRecord(node)) return node;
      const key = steps[index]!;
      if (!(key in node)) return node;
      const current = node[key];
      if (index === steps.length - 1) return current === null || current === undefined ? node : { ...node, [key]: replace(current, path) };
      const next = set(current, index + 1);
      return next === current ? node : { ...node, [key]: next };
    };
    result = set(result, 0);
  }
  return result as T;
};

/** `data` with every personal field of `fields` erased. */
export const erasedAt = <T>(data: T, fields: readonly string[]): T => withValuesAt(data, fields, erasedValue);

/** The personal values present in `data`, by path (null and absent ones are not personal data). */
export const personalValues = (data: unknown, fields: readonly string[]): Record<string, unknown> => {
  const values: Record<string, unknown> = {};
  for (const path of fields) {
    const value = valueAt(data, path);
    if (value !== null && value !== undefined) values[path] = value;
  }
  return values;
};

/** The e-mail address as a customer is known by: trimmed, lower-cased. */
export const normalisedEmail = (email: string): string => email.trim().toLowerCase();
