import type { SupplierName } from '../../events/schema/common-schemas.ts';
import type { Filter, ReadCollection, ReadStore } from '../read-store/read-store.ts';
import { supplierLinesCollection, type SupplierLineDocument } from './supplier-line-document.ts';

/** Reads of the `supplier_lines` read model. */

export type OpenSupplierLinesQuery = {
  supplier: SupplierName;
  /** Inclusive, YYYY-MM-DD, on the order's local date. */
  dateFrom?: string;
  dateTo?: string;
  /**
   * A service_order_id, or its line as the caller already read it (findSupplierLine): only the lines
   * strictly after it in the listing order.
   */
  afterCursor?: string | SupplierLineDocument;
  /** An increment ID: only that order's lines. */
  orderNumber?: string;
  skip?: number;
  limit?: number;
  /** Only these fields of each line (and its `_id`): all by default. */
  fields?: readonly (keyof SupplierLineDocument)[];
};

/** The listing order: stable, so that a cursor or a page means the same lines from one call to the next. */
const listingOrder = { orderDate: 1, incrementSort: 1, saleProductId: 1 } as const;

export const findSupplierLine = (store: ReadStore, serviceOrderId: string): Promise<SupplierLineDocument | null> =>
  store.collection<SupplierLineDocument>(supplierLinesCollection).findOne({ _id: serviceOrderId });

/**
 * The lines strictly after `cursor` in the listing order. The embedded store seeks these alternatives
 * in the index at the cursor itself (sqlite-filter.ts); the first condition bounds MongoDB's index scan
 * to the cursor's day onward.
 */
const after = (cursor: SupplierLineDocument): Filter<SupplierLineDocument> => ({
  orderDate: { $gte: cursor.orderDate },
  $or: [
    { orderDate: { $gt: cursor.orderDate } },
    { orderDate: cursor.orderDate, incrementSort: { $gt: cursor.incrementSort } },
    { orderDate: cursor.orderDate, incrementSort: cursor.incrementSort, saleProductId: { $gt: cursor.saleProductId } },
  ],
});

/** The line a query's cursor names, when it is one of the supplier's. */
const cursorLine = async (
  lines: ReadCollection<SupplierLineDocument>,
  { afterCursor, supplier }: OpenSupplierLinesQuery,
): Promise<SupplierLineDocument | null> => {
  if (afterCursor === undefined) return null;
  const line = typeof afterCursor === 'string' ? await lines.findOne({ _id: afterCursor }) : afterCursor;
  return line?.supplier === supplier ? line : null;
};

/**
 * The open lines of one supplier (acknowledged or not, until shipped or cancelled). The cursor line is
 * looked up whatever its state, since the supplier usually shipped it since; a cursor that names no line
 * of this supplier filters nothing (the route decides whether to refuse it first, with findSupplierLine).
 */
export const listOpenSupplierLines = async <Field extends keyof SupplierLineDocument = keyof SupplierLineDocument>(
  store: ReadStore,
  query: OpenSupplierLinesQuery & { fields?: readonly Field[] },
): Promise<Pick<SupplierLineDocument, Field | '_id'>[]> => {
  const lines = store.collection<SupplierLineDocument>(supplierLinesCollection);
  const cursor = await cursorLine(lines, query);
  // One lower bound, the later of the two: the lines after the cursor are ordered on its day or later,
  // so that a date_from up to that day excludes nothing more, and one after it nothing less.
  const cursorFirst = cursor !== null && (query.dateFrom === undefined || query.dateFrom <= cursor.orderDate);
  const dateFrom = cursorFirst ? undefined : query.dateFrom;
  const filter: Filter<SupplierLineDocument> = { supplier: query.supplier, open: true };
  if (dateFrom !== undefined || query.dateTo !== undefined) {
    filter.orderDate = {
      ...(dateFrom !== undefined && { $gte: dateFrom }),
      ...(query.dateTo !== undefined && { $lte: query.dateTo }),
    };
  }
  if (query.orderNumber !== undefined) filter.incrementId = query.orderNumber;
  return lines
    .find(cursorFirst ? { $and: [filter, after(cursor)] } : filter, {
      sort: listingOrder,
      ...(query.skip !== undefined && { skip: query.skip }),
      ...(query.limit !== undefined && { limit: query.limit }),
      ...(query.fields && { projection: Object.fromEntries(query.fields.map((field) => [field, 1])) }),
    })
    .toArray();
};

/** A supplier's lines open now, and how many of them were ordered before a day. */
export type OpenLineCounts = { supplier: SupplierName; open: number; orderedBefore: number };

/**
 * Per supplier, its open lines (neither shipped, cancelled nor refused) and those of them ordered
 * before `orderedBefore` (a local date, exclusive): two counts on the supplier's open lines by order
 * date, an index range each, whatever the history.
 */
export const openLineCounts = (store: ReadStore, suppliers: readonly SupplierName[], orderedBefore: string): Promise<OpenLineCounts[]> => {
  const lines = store.collection<SupplierLineDocument>(supplierLinesCollection);
  return Promise.all(
    suppliers.map(async (supplier) => ({
      supplier,
      open: await lines.countDocuments({ supplier, open: true }),
      orderedBefore: await lines.countDocuments({ supplier, open: true, orderDate: { $lt: orderedBefore } }),
    })),
  );
};
