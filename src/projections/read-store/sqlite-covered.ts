import { isIrregular, valueOfKey, type SqlKey } from './sqlite-keys.ts';
import type { Document } from './read-store.ts';

/**
 * Covered queries of the embedded read store, as MongoDB answers them from an index: when a query's
 * projection only includes top-level fields that have key columns (indexed paths), SQLite reads those
 * columns and the documents are never parsed from their JSON. A key that does not tell its value
 * exactly (null, which is also what a missing field is keyed as, or an array or embedded document) sends
 * its row back to its document. The fields come `_id` first, then in the projection's order (MongoDB,
 * too, builds a covered result from the index rather than from the document).
 */

export type CoveredField = { field: string; column: string };

/** The fields of an inclusion projection of top-level indexed fields, with their columns; undefined for any other projection. */
export const coveredFields = (projection: Document | undefined, columnOf: (path: string) => string | undefined): CoveredField[] | undefined => {
  if (projection === undefined) return undefined;
  let withId = true;
  const fields: CoveredField[] = [];
  for (const [field, value] of Object.entries(projection)) {
    if (field === '_id' && (value === 0 || value === false)) {
      withId = false;
      continue;
    }
    if ((value !== 1 && value !== true) || field.includes('.') || field.startsWith('$')) return undefined;
    const column = columnOf(field);
    if (column === undefined) return undefined;
    if (field !== '_id') fields.push({ field, column });
  }
  if (fields.length === 0) return undefined;
  return withId ? [{ field: '_id', column: columnOf('_id')! }, ...fields] : fields;
};

/** The document a row of key columns stands for; undefined when one of its keys does not tell its value. */
export const documentOfKeys = (fields: readonly CoveredField[], keys: readonly SqlKey[]): Document | undefined => {
  const doc: Document = {};
  for (let i = 0; i < fields.length; i++) {
    const key = keys[i]!;
    if (key === null || isIrregular(key)) return undefined;
    doc[fields[i]!.field] = valueOfKey(key);
  }
  return doc;
};
