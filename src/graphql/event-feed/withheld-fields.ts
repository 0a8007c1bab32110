import type { GraphqlContext } from '../context.ts';

/**
 * What the event feed and the sale log show of recorded events, by reader:
 * - credentials are shown to no one, though the log keeps them (the hash of a token's secret is what
 *   a token is checked against);
 * - personal data (who the customer is, where they live, how to reach them, what they wrote) is
 *   redacted for analysts, who read the log for figures; auditors (their own token group) and staff
 *   (core) see it as recorded.
 * The CLI replay, for operators who hold the data files anyway, shows events whole.
 */

export type Reader = 'analyst' | 'auditor';

export const readerOf = ({ token }: Pick<GraphqlContext, 'token'>): Reader => (token.group === 'analyst' ? 'analyst' : 'auditor');

/** The mark that stands for a redacted value. */
export const redacted = '[redacted]';

const credentials: Readonly<Record<string, readonly string[]>> = {
  AccessTokenIssued: ['secretHash'],
};

/** Personal data, wherever it sits in an event's data (a sale's customer, its addresses, a SAV, an appointment). */
const personalKeys: ReadonlySet<string> = new Set([
  'email',
  'customerEmail',
  'firstname',
  'lastname',
  'phone',
  'telephone',
  'shippingAddress',
  'billingAddress',
  // A business customer's company, often named after its owner; its SIREN and VAT number are the company's, shown.
  'companyName',
  'complaint',
  'comment',
]);

/** Personal data under a key that means something else in other events (a product's `name`). */
const personalKeysOf: Readonly<Record<string, readonly string[]>> = {
  ContactLeadCaptured: ['name', 'projectName'],
};

const redactPersonal = (value: unknown, extra: readonly string[]): unknown => {
  if (Array.isArray(value)) return value.map((item) => redactPersonal(item, extra));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) =>
      personalKeys.has(key) || extra.includes(key) ? [key, field === null ? null : redacted] : [key, redactPersonal(field, extra)],
    ),
  );
};

/**
 * How deep the feed shows recorded data: an event's own fields nest 4 levels, the fields beyond an
 * order's contract that an import keeps 8 (events/sales/unknown-fields-bounds.ts). Older imports kept
 * anything that parsed, thousands of levels deep: the feed shows such a value cut here rather than
 * fail its page.
 */
const shownDepth = 16;

/** Stands for what lies deeper than the feed shows. */
export const tooDeep = '[omitted: nested deeper than the feed shows]';

const withinDepth = (value: unknown, depth: number): unknown => {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= shownDepth) return tooDeep;
  if (Array.isArray(value)) return value.some((item) => typeof item === 'object' && item !== null) ? value.map((item) => withinDepth(item, depth + 1)) : value;
  const entries = Object.entries(value);
  if (!entries.some(([, field]) => typeof field === 'object' && field !== null)) return value;
  return Object.fromEntries(entries.map(([key, field]) => [key, withinDepth(field, depth + 1)]));
};

/** The event's data as the reader may see it (the same object when nothing is withheld). */
export const feedData = (type: string, recorded: unknown, reader: Reader): unknown => {
  const data = withinDepth(recorded, 0);
  if (typeof data !== 'object' || data === null) return data;
  const withheld = credentials[type] ?? [];
  const shown = withheld.length === 0 ? data : Object.fromEntries(Object.entries(data).filter(([key]) => !withheld.includes(key)));
  return reader === 'analyst' ? redactPersonal(shown, personalKeysOf[type] ?? []) : shown;
};
