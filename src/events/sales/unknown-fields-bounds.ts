import type { Upcaster } from '../schema/define-event.ts';

/**
 * How much of a payload's fields beyond the order-import contract a SaleImported keeps
 * (`unknownFields`): what marketplaces send beyond the contract is a few dozen fields a few levels
 * deep (a line's colour, a loyalty tier, a fee breakdown; the contract's own example nests 3 levels,
 * Magento's extension attributes 6), so anything past these bounds is not an order's data. They keep
 * every reader of the log (read models, replays, exports) within a known cost, for good: an event in
 * the log is never rewritten.
 */
export const unknownFieldBounds = {
  /** Levels of the payload, from its root: `items.0.extension.shipping.address.street.0` is 7. */
  maxDepth: 8,
  /** Values kept in all (objects, arrays and the values in them). */
  maxValues: 1_000,
  /** Bytes of their JSON text. */
  maxBytes: 64 * 1024,
} as const;

export type UnknownFieldsProblem = { field: string; message: string };

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => typeof value === 'object' && value !== null;

/**
 * Where `fields` (already the unknown fields alone, shaped as the payload) break a bound, naming the
 * first field at fault; null when they keep within them. Never descends past the depth bound, so a
 * value nested ten thousand levels deep costs what eight levels cost.
 */
export const unknownFieldsProblem = (fields: Record<string, unknown>): UnknownFieldsProblem | null => {
  let values = 0;
  // Depth-first, with an explicit stack: [path, value, depth].
  const stack: [string, unknown, number][] = Object.entries(fields)
    .reverse()
    .map(([key, value]) => [key, value, 1]);
  while (stack.length > 0) {
    const [path, value, depth] = stack.pop()!;
    values += 1;
    if (values > unknownFieldBounds.maxValues) {
      return { field: path, message: `more than ${unknownFieldBounds.maxValues} values in fields beyond the contract` };
    }
    if (!isContainer(value)) continue;
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
    if (entries.length === 0) continue;
    if (depth >= unknownFieldBounds.maxDepth) {
      return { field: `${path}.${entries[0]![0]}`, message: `a field beyond the contract nested more than ${unknownFieldBounds.maxDepth} levels deep` };
    }
    for (let i = entries.length - 1; i >= 0; i--) stack.push([`${path}.${entries[i]![0]}`, entries[i]![1], depth + 1]);
  }
  const bytes = Buffer.byteLength(JSON.stringify(fields));
  if (bytes > unknownFieldBounds.maxBytes) {
    return { field: Object.keys(fields)[0] ?? '', message: `fields beyond the contract take ${bytes} bytes, more than ${unknownFieldBounds.maxBytes}` };
  }
  return null;
};

/** What stands in the place of what an old log kept beyond the bounds. */
export const omitted = '[omitted: beyond the bounds of fields kept outside the contract]';

/** `value` cut at the depth bound, each cut subtree replaced by `omitted`; `budget` counts the values kept. */
const cut = (value: unknown, depth: number, budget: { left: number }): unknown => {
  budget.left -= 1;
  if (!isContainer(value)) return value;
  if (depth >= unknownFieldBounds.maxDepth) return Array.isArray(value) ? (value.length === 0 ? [] : omitted) : Object.keys(value).length === 0 ? {} : omitted;
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value) {
      if (budget.left <= 0) return [...kept, omitted];
      kept.push(cut(item, depth + 1, budget));
    }
    return kept;
  }
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (budget.left <= 0) return { ...kept, [omitted]: true };
    kept[key] = cut(item, depth + 1, budget);
  }
  return kept;
};

/**
 * SaleImported version 2, read as version 3: unknown fields that an earlier import recorded beyond
 * today's bounds (it recorded anything that parsed) are read cut at the bounds, so that no reader of
 * the log fails on them: the read models, `saleAt`, the event feed, replays and `projections verify`
 * all read the same, bounded event. What the import kept within the bounds reads as it was written.
 */
export const saleImportedV2: Upcaster = (data, repaired) => {
  if (typeof data !== 'object' || data === null || !('unknownFields' in data)) return data;
  const fields = (data as { unknownFields: unknown }).unknownFields;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return data;
  const problem = unknownFieldsProblem(fields as Record<string, unknown>);
  if (!problem) return data;
  let bounded = cut(fields, 0, { left: unknownFieldBounds.maxValues }) as Record<string, unknown>;
  if (Buffer.byteLength(JSON.stringify(bounded)) > unknownFieldBounds.maxBytes) bounded = { [omitted]: true };
  // The recorded value is named, not carried: the repair is logged, and it may be what cannot be logged.
  repaired('unknownFields', `(${problem.field}: ${problem.message})`, '(cut at the bounds)', 'was beyond the bounds of fields kept outside the contract');
  return { ...data, unknownFields: bounded };
};
