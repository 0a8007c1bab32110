/**
 * Personal data in events: which fields of an event hold it, and whose it is. Each event type that
 * carries some declares it beside its schema (`defineEvent(..., { personal })`); the encrypting event
 * store (personal-data/encrypting-event-store.ts) seals those fields with the customer's key, and reads them back as
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
  for (const step of steps(path)) {
    if (!isRecord(current)) return undefined;
    current = current[step];
  }
  return current;
};

const stepsOf = new Map<string, readonly string[]>();
const steps = (path: string): readonly string[] => {
  let found = stepsOf.get(path);
  if (!found) {
    found = path.split('.');
    stepsOf.set(path, found);
  }
  return found;
};

/** The fields of a list of paths as a tree, so that each object on the way is copied once. */
type Plan = Map<string, { path: string } | { plan: Plan }>;

const plans = new WeakMap<readonly string[], Plan>();

const planOf = (paths: readonly string[]): Plan => {
  let plan = plans.get(paths);
  if (plan) return plan;
  plan = new Map();
  for (const path of paths) {
    let level = plan;
    const all = steps(path);
    all.forEach((step, index) => {
      if (index === all.length - 1) level.set(step, { path });
      else {
        const next = level.get(step);
        if (next && 'plan' in next) level = next.plan;
        else {
          const created: Plan = new Map();
          level.set(step, { plan: created });
          level = created;
        }
      }
    });
  }
  plans.set(paths, plan);
  return plan;
};

const applyPlan = (node: unknown, plan: Plan, replace: (value: unknown, path: string) => unknown): unknown => {
  if (!isRecord(node)) return node;
  let copy: Record<string, unknown> | undefined;
  for (const [key, step] of plan) {
    const current = node[key];
    if (current === null || current === undefined) continue;
    const next = 'path' in step ? replace(current, step.path) : applyPlan(current, step.plan, replace);
    if (next === current) continue;
    copy ??= { ...node };
    copy[key] = next;
  }
  return copy ?? node;
};

/**
 * A copy of `data` with the value at each path replaced by `replace(value, path)`; objects on the way
 * are copied (once each), never changed in place. A path whose value is null or absent is left as it
 * is. Give the same array of paths each time (an event type's fields): its plan is kept.
 */
export const withValuesAt = <T>(data: T, paths: readonly string[], replace: (value: unknown, path: string) => unknown): T =>
  applyPlan(data, planOf(paths), replace) as T;

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
